// SPDX-License-Identifier: GPL-2.0
/*
 * mips o32: the breakpoint of the live-patching protocol, and what a
 * thread that hits it is made to do.
 *
 *   during a patch:   0000000d  break      (over the site's first word)
 *   the thread:       traps with the PC at the break
 *   then:             the site's new words run, one by one, here
 *
 * A site is a call and its delay slot (ftrace.c), so the handler runs
 * both words of the new state: the call leaves ra after the delay slot
 * and t9 = the target, which a PIC callee computes its gp from; bnel
 * skips both; the others are stack adjustments or nops.  The break never
 * sits in a delay slot: the word before a site is no branch.
 */
#include "../arch.h"

#include <string.h>
#include <ucontext.h>

#define NOP		0x00000000u
#define JAL		0x0c000000u
#define JALR_T9		0x0320f809u
#define BNEL_ZERO	0x54000000u	/* bnel zero, zero, off */
#define ADDIU_SP_SP	0x27bd0000u
#define HI16		0xffff0000u

enum { R_SP = 29, R_RA = 31, R_T9 = 25 };

const uint8_t arch_breakpoint[4] = {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	0, 0, 0, 0x0d
#else
	0x0d, 0, 0, 0
#endif
};
const unsigned arch_breakpoint_len = 4;

static mcontext_t *mc(void *ucontext)
{
	return &((ucontext_t *)ucontext)->uc_mcontext;
}

/* o32 registers live in 64-bit slots, sign-extended. */
static uint32_t reg(mcontext_t *m, unsigned r)
{
	return (uint32_t)m->gregs[r];
}

static void set_reg(mcontext_t *m, unsigned r, uint32_t v)
{
	m->gregs[r] = (greg_t)(int64_t)(int32_t)v;
}

uintptr_t arch_trap_address(const void *ucontext)
{
	return (uint32_t)mc((void *)ucontext)->pc;
}

void arch_restart_at(void *ucontext, uintptr_t addr)
{
	mc(ucontext)->pc = (greg_t)(int64_t)(int32_t)addr;
}

/* The delay slot of a site's call, or a word of its nop: -1 if it is
 * none of theirs. */
static int step(mcontext_t *m, uint32_t w)
{
	if (w == NOP)
		return 0;
	if ((w & HI16) == ADDIU_SP_SP) {
		set_reg(m, R_SP, reg(m, R_SP) + (int16_t)w);
		return 0;
	}
	return -1;
}

/* Emulate insn; -1 with the registers untouched if it is not ours. */
static int emulate(void *ucontext, uintptr_t addr, const uint8_t *insn, unsigned len)
{
	mcontext_t *m = mc(ucontext);
	uint32_t w[2], target;

	if (len != 8)
		return -1;
	memcpy(w, insn, 8);
	if ((w[0] & 0xfc000000u) == JAL || w[0] == JALR_T9) {
		target = w[0] == JALR_T9 ? reg(m, R_T9)
			: (((uint32_t)addr + 4) & 0xf0000000u) | (w[0] & 0x03ffffffu) << 2;
		if (step(m, w[1]))
			return -1;
		set_reg(m, R_RA, (uint32_t)addr + 8);
		set_reg(m, R_T9, target);
		arch_restart_at(ucontext, target);
		return 0;
	}
	if ((w[0] & HI16) != BNEL_ZERO && (step(m, w[0]) || step(m, w[1])))
		return -1;
	arch_restart_at(ucontext, addr + 8);
	return 0;
}

int arch_emulate(void *ucontext, uintptr_t addr, const uint8_t *insn, unsigned len)
{
	mcontext_t saved = *mc(ucontext);

	if (emulate(ucontext, addr, insn, len) == 0)
		return 0;
	*mc(ucontext) = saved;	/* a first word stepped, the second not */
	return -1;
}

/*
 * Every site's nop and call differ in one aligned word (ftrace.c): one
 * store changes the site whole, with no trap, for threads that block
 * SIGTRAP.
 */
int arch_can_poke_atomic(uintptr_t addr, unsigned len)
{
	return !(addr & 3) && (len == 4 || len == 8);
}

int arch_poke_atomic(uintptr_t addr, const uint8_t *insn, unsigned len)
{
	uint32_t *p = (uint32_t *)addr;
	int changed = -1;

	if (!arch_can_poke_atomic(addr, len))
		return -1;
	for (unsigned i = 0; i < len / 4; i++) {
		uint32_t w;

		memcpy(&w, insn + 4 * i, 4);
		if (w == p[i])
			continue;
		if (changed >= 0)
			return -1;
		changed = (int)i;
	}
	if (changed >= 0) {
		uint32_t w;

		memcpy(&w, insn + 4 * changed, 4);
		__atomic_store_n(&p[changed], w, __ATOMIC_RELAXED);
	}
	return 0;
}
