// SPDX-License-Identifier: GPL-2.0
/*
 * i386: the breakpoint of the live-patching protocol, and what a thread
 * that hits it is made to do.
 *
 *   during a patch:   cc 8d 74 26 00     (int3 over the first byte)
 *   the thread:       traps with %eip = site + 1
 *   new nop:          %eip = site + len
 *   new call:         push site + len; %eip = target
 *
 * i386 has no red zone: the kernel builds the signal frame right below
 * the interrupted %esp, its FPU state on top, rounded down to 64 bytes.
 * Most of the time a gap is left above it, but where there is none the
 * word the push would write holds the frame's FP_XSTATE_MAGIC2, and
 * overwriting it would make sigreturn drop the thread's AVX state.  Then
 * the call is left out, as if the thread had passed a moment before the
 * patch: one traced call missed, never a corrupted thread.
 */
#include "../arch.h"
#include "../../common/plain_bytes.h"
#include "../x86/x86.h"
#include "cmpxchg8b.h"

#include <string.h>
#include <ucontext.h>

const uint8_t arch_breakpoint[] = { 0xcc };
const unsigned arch_breakpoint_len = 1;

/* The FPU state the kernel saved for 32-bit frames: a 112-byte fsave
 * header, then the fxsave image, whose software-reserved words say how
 * long the extended (xsave) state is, header included. */
enum {
	FPSTATE_LEGACY_SIZE = 624,
	FPSTATE_SW_RESERVED = 576,
	FP_XSTATE_MAGIC1 = 0x46505853,
};

static greg_t *regs(void *ucontext)
{
	return ((ucontext_t *)ucontext)->uc_mcontext.gregs;
}

uintptr_t arch_trap_address(const void *ucontext)
{
	return (uintptr_t)regs((void *)ucontext)[REG_EIP] - 1;
}

void arch_restart_at(void *ucontext, uintptr_t addr)
{
	regs(ucontext)[REG_EIP] = (greg_t)addr;
}

static int is_nop(const uint8_t *insn, unsigned len)
{
	uint8_t nop[ARCH_MAX_INSN];

	arch_make_nop(NULL, len, nop);
	return plain_bytes_equal(insn, nop, len);
}

/* The end of the signal frame: the end of its FPU state. */
static uintptr_t frame_top(const ucontext_t *uc)
{
	const uint8_t *fp = (const uint8_t *)uc->uc_mcontext.fpregs;
	uint32_t magic1, size;

	if (!fp)
		return (uintptr_t)(uc + 1);
	memcpy(&magic1, fp + FPSTATE_SW_RESERVED, 4);
	memcpy(&size, fp + FPSTATE_SW_RESERVED + 4, 4);
	if (magic1 != FP_XSTATE_MAGIC1)
		size = FPSTATE_LEGACY_SIZE;
	return (uintptr_t)fp + size;
}

/* May a word be pushed below the interrupted %esp?  Not if it lands in
 * this handler's own frame (which may as well be on a sigaltstack). */
static int can_push(const ucontext_t *uc, uintptr_t sp)
{
	return !(sp > (uintptr_t)uc && sp - 4 < frame_top(uc));
}

int arch_emulate(void *ucontext, uintptr_t addr, const uint8_t *insn, unsigned len)
{
	greg_t *r = regs(ucontext);
	uintptr_t target, sp = (uintptr_t)r[REG_ESP];

	if (is_nop(insn, len)) {
		r[REG_EIP] = (greg_t)(addr + len);
		return 0;
	}
	target = x86_call_target(addr, insn, len);
	if (!target)
		return -1;
	if (!can_push(ucontext, sp)) {
		r[REG_EIP] = (greg_t)(addr + len);
		return 0;
	}
	/* sigreturn takes %esp from REG_ESP; REG_UESP is only a copy. */
	sp -= 4;
	*(uintptr_t *)sp = addr + len;
	r[REG_ESP] = (greg_t)sp;
	r[REG_UESP] = (greg_t)sp;
	r[REG_EIP] = (greg_t)target;
	return 0;
}

/*
 * A site within one cache line is replaced by a single "lock cmpxchg8b"
 * on 8 bytes around it, in that line: the locked write holds the line
 * until all 8 bytes are in, so another CPU fetches either the old site
 * or the new one, never half of each.  The 8 bytes need not be aligned
 * (a locked access is atomic at any alignment; only one that splits a
 * line is slow, and may be refused), so a 6-byte PIE site at offset 15
 * of a function, past an 8-byte boundary, still qualifies.  This needs no
 * trap, for threads that block SIGTRAP (see ../../core/patch.c).
 */
#define CACHE_LINE 64

int arch_can_poke_atomic(uintptr_t addr, unsigned len)
{
	return len <= 8 && addr / CACHE_LINE == (addr + len - 1) / CACHE_LINE;
}

/* The 8 bytes written: from the site on, or the line's last 8. */
static volatile uint64_t *window(uintptr_t addr)
{
	uintptr_t line_end = (addr / CACHE_LINE + 1) * CACHE_LINE;

	return (volatile uint64_t *)(addr + 8 <= line_end ? addr : line_end - 8);
}

int arch_poke_atomic(uintptr_t addr, const uint8_t *insn, unsigned len)
{
	volatile uint64_t *w = window(addr);
	uint64_t old, new, seen;

	if (!arch_can_poke_atomic(addr, len))
		return -1;
	/* A torn read only fails the first exchange, which reads again. */
	old = *w;
	for (;;) {
		new = old;
		plain_bytes_copy((uint8_t *)&new + (addr - (uintptr_t)w), insn, len);
		seen = cmpxchg8b(w, old, new);
		if (seen == old)
			return 0;
		old = seen;
	}
}
