// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: the breakpoint of the live-patching protocol, and what a thread
 * that hits it is made to do.
 *
 *   during a patch:   cc 1f 44 00 00     (int3 over the first byte)
 *   the thread:       traps with %rip = site + 1
 *   new nop:          %rip = site + len
 *   new call:         push site + len; %rip = target
 *
 * The push lands in the 128-byte red zone below the interrupted %rsp,
 * which the kernel leaves alone when it builds the signal frame.
 */
#include "../arch.h"

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

void arch_restart_at(void *ucontext, uintptr_t addr)
{
	regs(ucontext)[REG_RIP] = (greg_t)addr;
}

static int is_nop(const uint8_t *insn, unsigned len)
{
	uint8_t nop[ARCH_MAX_INSN];

	arch_make_nop(len, nop);
	return memcmp(insn, nop, len) == 0;
}

/* The target of "e8 rel32" or "67 e8 rel32" at addr, or 0. */
static uintptr_t call_target(uintptr_t addr, const uint8_t *insn, unsigned len)
{
	unsigned prefix = len - 5;
	int32_t rel;

	if (len < 5 || len > 6 || (prefix && insn[0] != 0x67) || insn[prefix] != 0xe8)
		return 0;
	memcpy(&rel, insn + prefix + 1, 4);
	return addr + len + rel;
}

int arch_emulate(void *ucontext, uintptr_t addr, const uint8_t *insn, unsigned len)
{
	greg_t *r = regs(ucontext);
	uintptr_t target;

	if (is_nop(insn, len)) {
		r[REG_RIP] = (greg_t)(addr + len);
		return 0;
	}
	target = call_target(addr, insn, len);
	if (!target)
		return -1;
	r[REG_RSP] -= 8;
	*(uintptr_t *)r[REG_RSP] = addr + len;
	r[REG_RIP] = (greg_t)target;
	return 0;
}
