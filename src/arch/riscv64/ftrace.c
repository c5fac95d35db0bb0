// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64: the bytes of the runtime's patches.
 *
 *   4-byte site: gcc -pg as ld relaxed it, or ftrace_call
 *     compiler:  jal   ra, _mcount@plt
 *     nop:       nop
 *     call:      the compiler's jal again (through the PLT to our _mcount,
 *                however far away the runtime is); for ftrace_call:
 *                jal   ra, <tracer>
 *
 *   8-byte site: gcc -pg -mno-relax, clang -pg, fntrace cc (two nops),
 *   -fpatchable-function-entry=4 (four c.nop)
 *     compiler:  auipc ra, hi; jalr ra, lo(ra)   (or the nops)
 *     nop:       j     +8;     nop
 *     call:      auipc t0, hi; jalr t0, lo(t0)   -> ftrace_caller[_frame]
 *
 * Only the first word of an 8-byte site is a way in: its nop jumps over
 * the second, so no thread ever waits at the second word of a disabled
 * site, and the call's jalr can be written under it.  A thread that ran
 * the call's auipc and waits at its jalr when the site is disabled runs
 * the nop there instead: the auipc only wrote t0 (or ra, already saved
 * by the prologue), which nothing reads.  The trap and the single-store
 * poke (trap.c) rely on exactly this.
 *
 * t0 carries the return address of our calls: at a function's entry ra
 * still holds the parent's, and t0 is free there (it is no argument, nor
 * the static chain, which is t2).
 */
#include "../arch.h"
#include "riscv64.h"

#include <string.h>

const unsigned ftrace_call_len = 4;

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

void arch_make_nop(const uint8_t *orig, unsigned len, uint8_t *insn)
{
	if (len == 8) {
		put32(insn, RV_J8);
		put32(insn + 4, RV_NOP);
	} else {
		put32(insn, RV_NOP);
	}
}

/* Is the site's own code a call to mcount, to be used as our call? */
static int is_mcount_call(const uint8_t *orig, unsigned len)
{
	if (!orig)
		return 0;
	if (len == 4)
		return rv_is_jal(get32(orig), RV_RA);
	return len == 8 && rv_is_auipc(get32(orig), RV_RA) &&
	       rv_is_jalr(get32(orig + 4), RV_RA, RV_RA);
}

/* auipc rd, hi; jalr rd, lo(rd): pc-relative, +-2 GiB. */
static int make_far_call(uintptr_t ip, uintptr_t target, unsigned rd, uint8_t *insn)
{
	int64_t off = (int64_t)(target - ip);
	int64_t lo = ((off & 0xfff) ^ 0x800) - 0x800;
	int64_t hi = off - lo;

	if (hi != (int32_t)hi)
		return -1;
	put32(insn, (uint32_t)hi | rd << 7 | RV_OP_AUIPC);
	put32(insn + 4, (uint32_t)lo << 20 | rd << 15 | rd << 7 | RV_OP_JALR);
	return 0;
}

int arch_make_call(uintptr_t ip, const uint8_t *orig, unsigned len, uintptr_t target,
		   uint8_t *insn)
{
	uint32_t jal;

	if (len == 8 && make_far_call(ip, target, RV_T0, insn) == 0)
		return 0;
	if (is_mcount_call(orig, len)) {
		memcpy(insn, orig, len);
		return 0;
	}
	if (len != 4 || rv_make_jal(ip, target, orig ? RV_T0 : RV_RA, &jal))
		return -1;
	put32(insn, jal);
	return 0;
}

uintptr_t arch_call_reach(void)
{
	/* auipc+jalr reaches -2 GiB .. +2 GiB - 2 KiB; keep a page of margin. */
	return (1ul << 31) - 8192;
}

/*
 * A far-call trampoline, 8-byte aligned (slots are 24 bytes apart):
 *
 *   auipc t1, 0
 *   ld    t1, 16(t1)
 *   jr    t1
 *   nop
 *   .quad target
 *
 * t1 is free at every site (the PLT stubs clobber it); t0 and ra carry
 * the site's return and the parent's, and stay.
 */
size_t arch_tramp_size(void)
{
	return 24;
}

void arch_tramp_write(uint8_t *at, uintptr_t target)
{
	put32(at, RV_T1 << 7 | RV_OP_AUIPC);
	put32(at + 4, 16u << 20 | RV_T1 << 15 | 3u << 12 | RV_T1 << 7 | RV_OP_LOAD);
	put32(at + 8, RV_T1 << 15 | RV_OP_JALR);
	put32(at + 12, RV_NOP);
	memcpy(at + 16, &target, sizeof(target));
}

uintptr_t arch_caller_for(enum site_kind kind)
{
	return (uintptr_t)(kind == SITE_FRAME ? ftrace_caller_frame : ftrace_caller);
}

/* a0-a7 are words 0-7 of the block ftrace_caller saves (entry.S).  A -pg
 * function has moved its arguments before it calls _mcount: only its
 * return value can be read. */
const struct arch_arg_regs arch_arg_regs = {
	.nr_int = 8,
	.nr_fp = 8,
	.entry_only = 1,
	.int_slot = { 0, 1, 2, 3, 4, 5, 6, 7 },
};
