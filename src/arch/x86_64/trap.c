// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: the breakpoint of the live-patching protocol, and what a thread
 * that hits it is made to do.
 *
 *   during a patch:   cc 1f 44 00 00     (int3 over the first byte)
 *   the thread:       traps with %rip = site + 1
 *   new nop:          %rip = site + len
 *   new call:         push site + len; %rip = target
 *   new jmp:          %rip = target   (a detour's entry, core/detours.c)
 *
 * The push lands in the 128-byte red zone below the interrupted %rsp,
 * which the kernel leaves alone when it builds the signal frame.
 */
#include "../arch.h"
#include "../../common/plain_bytes.h"
#include "../x86/x86.h"

#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>

const uint8_t arch_breakpoint[] = { 0xcc };
const unsigned arch_breakpoint_len = 1;

static greg_t *regs(void *ucontext)
{
	return ((ucontext_t *)ucontext)->uc_mcontext.gregs;
}

uintptr_t arch_trap_address(const void *ucontext)
{
	return (uintptr_t)regs((void *)ucontext)[REG_RIP] - 1;
}

uintptr_t arch_context_pc(const void *ucontext)
{
	return (uintptr_t)regs((void *)ucontext)[REG_RIP];
}

uintptr_t arch_context_sp(const void *ucontext)
{
	return (uintptr_t)regs((void *)ucontext)[REG_RSP];
}

uintptr_t arch_signal_restorer(const void *sigaction)
{
	return (uintptr_t)((const struct sigaction *)sigaction)->sa_restorer;
}

/*
 * The kernel's x86_64 signal frame (rt_sigframe), from the handler's
 * return address up:
 *
 *   at:      the restorer (libc's __restore_rt)
 *   at + 8:  the ucontext: uc_flags, uc_link, uc_stack, uc_mcontext's
 *            general registers (the interrupted %rip, %rsp) ...
 *   ...      the siginfo, the FPU state; then, above the red zone, the
 *            interrupted %rsp
 *
 * Words that only look like it are told apart by the flags (the kernel
 * sets no other bits than UC_FP_XSTATE and the two SS ones) and the
 * stack pointer, which must lie above the frame and not far.
 */
uintptr_t arch_signal_frame_pc(uintptr_t at, arch_read_fn read)
{
	ucontext_t uc;
	size_t len = offsetof(ucontext_t, uc_mcontext) + sizeof(uc.uc_mcontext.gregs);
	uintptr_t sp;

	if (read(at + 8, (char *)&uc, len) != (long)len || uc.uc_flags & ~7ul)
		return 0;
	sp = (uintptr_t)uc.uc_mcontext.gregs[REG_RSP];
	if (sp < at + 8 + len || sp - at > 64 * 1024)
		return 0;
	return (uintptr_t)uc.uc_mcontext.gregs[REG_RIP];
}

void arch_restart_at(void *ucontext, uintptr_t addr)
{
	regs(ucontext)[REG_RIP] = (greg_t)addr;
}

static int is_nop(const uint8_t *insn, unsigned len)
{
	uint8_t nop[ARCH_MAX_INSN];

	arch_make_nop(NULL, len, nop);
	return plain_bytes_equal(insn, nop, len);
}

int arch_emulate(void *ucontext, uintptr_t addr, const uint8_t *insn, unsigned len)
{
	greg_t *r = regs(ucontext);
	uintptr_t target;

	if (is_nop(insn, len)) {
		r[REG_RIP] = (greg_t)(addr + len);
		return 0;
	}
	if (len == 5 && insn[0] == 0xe9) {
		int32_t rel;

		memcpy(&rel, insn + 1, 4);
		r[REG_RIP] = (greg_t)(addr + 5 + rel);
		return 0;
	}
	target = x86_call_target(addr, insn, len);
	if (!target)
		return -1;
	r[REG_RSP] -= 8;
	*(uintptr_t *)r[REG_RSP] = addr + len;
	r[REG_RIP] = (greg_t)target;
	return 0;
}

/*
 * A site within one aligned 16-byte block is replaced by a single
 * "lock cmpxchg16b": another CPU fetches the line holding it either
 * before or after, never half of each.  This needs no trap, for threads
 * that block SIGTRAP (see ../../core/patch.c).  -O2 code starts functions
 * on 16 bytes, so an entry site, or a -pg site after "push %rbp; mov
 * %rsp,%rbp", is such a site.
 */
static int has_cmpxchg16b(void)
{
	static int known = -1;
	uint32_t a = 1, b, c, d;

	if (known < 0) {
		__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d));
		known = (c >> 13) & 1;
	}
	return known;
}

int arch_can_poke_atomic(uintptr_t addr, unsigned len)
{
	return has_cmpxchg16b() && (addr & ~(uintptr_t)15) == ((addr + len - 1) & ~(uintptr_t)15);
}

int arch_poke_atomic(uintptr_t addr, const uint8_t *insn, unsigned len)
{
	uint64_t *block = (uint64_t *)(addr & ~(uintptr_t)15);
	uint64_t old_lo, old_hi, new[2];
	uint8_t ok;

	if (!arch_can_poke_atomic(addr, len))
		return -1;
	do {
		old_lo = block[0];
		old_hi = block[1];
		new[0] = old_lo;
		new[1] = old_hi;
		plain_bytes_copy((uint8_t *)new + (addr & 15), insn, len);
		__asm__ volatile("lock cmpxchg16b %1; sete %0"
				 : "=q"(ok), "+m"(*(volatile __int128 *)block),
				   "+a"(old_lo), "+d"(old_hi)
				 : "b"(new[0]), "c"(new[1])
				 : "memory", "cc");
	} while (!ok);
	return 0;
}
