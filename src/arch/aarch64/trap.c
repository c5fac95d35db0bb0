// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64: how a site changes while other threads run it.
 *
 * The architecture lets a CPU run an instruction while another CPU
 * replaces it, when old and new are each one of B, BL, NOP, BRK, SVC,
 * HVC, SMC (or ISB), written by one aligned 32-bit store and followed by
 * cache maintenance.  Every enable and disable here is such a change: a
 * -pg site is NOP <-> BL, an entry site keeps "mov x9, x30" and toggles
 * its second word NOP <-> BL, ftrace_call is NOP <-> BL <-> BL.  So they
 * take no trap at all (arch_can_poke_live).
 *
 * The breakpoint protocol remains for the changes outside that set: an
 * entry site's first word, nop -> "mov x9, x30", written when a module
 * is loaded, or back for detach, while threads run; and a detour's entry
 * (core/detours.c), whose first instruction (an stp, a sub) becomes
 * "b stub" and back:
 *
 *   during the patch:  d4201ee0  brk #0xf7        d503201f  nop
 *   the thread:        traps with pc = site (qemu and Linux alike)
 *   new nop:           x9 = x30; pc = site + 8
 *   new call:          x9 = x30; x30 = site + 8; pc = target
 *   a detour's b:      pc = stub (on or off: the stub runs the
 *                      instruction the b replaces, then goes on)
 */
#include "../arch.h"
#include "aarch64.h"

#include <string.h>
#include <sys/auxv.h>
#include <ucontext.h>

const uint8_t arch_breakpoint[] = {
	A64_BRK_FT & 0xff, (A64_BRK_FT >> 8) & 0xff, (A64_BRK_FT >> 16) & 0xff, A64_BRK_FT >> 24,
};
const unsigned arch_breakpoint_len = 4;

static mcontext_t *mctx(const void *ucontext)
{
	return &((ucontext_t *)ucontext)->uc_mcontext;
}

uintptr_t arch_trap_address(const void *ucontext)
{
	return (uintptr_t)mctx(ucontext)->pc;
}

uintptr_t arch_context_pc(const void *ucontext)
{
	return (uintptr_t)mctx(ucontext)->pc;
}

void arch_restart_at(void *ucontext, uintptr_t addr)
{
	mctx(ucontext)->pc = addr;
}

static uint32_t word(const uint8_t *insn, unsigned i)
{
	uint32_t w;

	memcpy(&w, insn + 4 * i, 4);
	return w;
}

/* Is every word one the emulator knows: nop, mov x9, x30, b, bl? */
static int emulable(const uint8_t *insn, unsigned len)
{
	for (unsigned i = 0; i < len / 4; i++) {
		uint32_t w = word(insn, i);

		if (w != A64_NOP && w != A64_MOV_X9_X30 && !a64_is_b(w) && !a64_is_bl(w))
			return 0;
	}
	return len == 4 || len == 8;
}

int arch_emulate(void *ucontext, uintptr_t addr, const uint8_t *insn, unsigned len)
{
	mcontext_t *m = mctx(ucontext);

	if (!emulable(insn, len))
		return -1;
	for (unsigned i = 0; i < len / 4; i++) {
		uintptr_t pc = addr + 4 * i;
		uint32_t w = word(insn, i);

		if (w == A64_MOV_X9_X30) {
			m->regs[9] = m->regs[30];
		} else if (a64_is_bl(w) || a64_is_b(w)) {
			if (a64_is_bl(w))
				m->regs[30] = pc + 4;
			m->pc = a64_branch_target(pc, w);
			return 0;
		}
	}
	m->pc = addr + len;
	return 0;
}

/* The one word in which the site at addr and insn differ: its index, -1
 * if none does, -2 if several do. */
static int changed_word(const uint8_t *now, const uint8_t *insn, unsigned len)
{
	int found = -1;

	for (unsigned i = 0; i < len / 4; i++) {
		if (word(now, i) == word(insn, i))
			continue;
		if (found >= 0)
			return -2;
		found = (int)i;
	}
	return found;
}

static int branch_or_nop(uint32_t w)
{
	return w == A64_NOP || a64_is_b(w) || a64_is_bl(w);
}

int arch_can_poke_live(uintptr_t addr, const uint8_t *old, const uint8_t *new, unsigned len)
{
	int i = changed_word(old, new, len);

	return !(addr & 3) && (len == 4 || len == 8) && i >= 0 &&
	       branch_or_nop(word(old, i)) && branch_or_nop(word(new, i));
}

/*
 * One aligned 32-bit store is single-copy atomic: a CPU fetching the word
 * sees it old or new, never half of each.  Every site here changes in one
 * word at a time (the entry site's first word once, then only its second),
 * so each can be written so where a thread blocks SIGTRAP.
 */
int arch_can_poke_atomic(uintptr_t addr, unsigned len)
{
	return !(addr & 3) && (len == 4 || len == 8);
}

int arch_poke_atomic(uintptr_t addr, const uint8_t *insn, unsigned len)
{
	int i;
	uint32_t *w;

	if (!arch_can_poke_atomic(addr, len))
		return -1;
	i = changed_word((const uint8_t *)addr, insn, len);
	if (i == -1)
		return 0;
	if (i < 0)
		return -1;
	w = (uint32_t *)addr + i;
	__atomic_store_n(w, word(insn, (unsigned)i), __ATOMIC_RELAXED);
	__builtin___clear_cache((char *)w, (char *)(w + 1));
	return 0;
}

/*
 * Under qemu-user, membarrier reaches the host's cores, not the threads
 * qemu runs: one of them may be inside a block it translated from the old
 * code.  A signal does reach them: qemu delivers it between two blocks.
 * qemu is known by its model CPU, whose MIDR_EL1 has implementer 0
 * ("software"), which Linux lets user space read (HWCAP_CPUID); and qemu
 * before 8.1 by the vDSO it does not map, which every arm64 kernel does.
 */
#define HWCAP_CPUID_BIT (1ul << 11)

int arch_cpu_emulated(void)
{
	uint64_t midr;

	if (!getauxval(AT_SYSINFO_EHDR))
		return 1;
	if (!(getauxval(AT_HWCAP) & HWCAP_CPUID_BIT))
		return 0;
	__asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
	return (midr >> 24 & 0xff) == 0;
}
