/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aarch64: the instruction words the runtime writes and reads.  Words are
 * little-endian in memory, as the runtime only ever runs little-endian.
 */
#ifndef FNTRACE_AARCH64_H
#define FNTRACE_AARCH64_H

#include <stdint.h>

#define A64_NOP		0xd503201fu
#define A64_MOV_X9_X30	0xaa1e03e9u	/* orr x9, xzr, x30 */
#define A64_MOV_X16_X30	0xaa1e03f0u	/* orr x16, xzr, x30 */
#define A64_MOV_X17_X30	0xaa1e03f1u	/* orr x17, xzr, x30 */
#define A64_RET		0xd65f03c0u	/* ret (x30) */
#define A64_LDR_X16_8	0x58000050u	/* ldr x16, <pc + 8> */
#define A64_BR_X16	0xd61f0200u
#define A64_BLR_X16	0xd63f0200u
/* The breakpoint: brk #0xf7, apart from gdb's (#0) and __builtin_trap's
 * (#0x3e8), so that a look at a core dump tells them apart. */
#define A64_BRK_FT	(0xd4200000u | 0xf7u << 5)

#define A64_B_MASK	0xfc000000u
#define A64_B		0x14000000u
#define A64_BL		0x94000000u

static inline int a64_is_b(uint32_t insn)
{
	return (insn & A64_B_MASK) == A64_B;
}

static inline int a64_is_bl(uint32_t insn)
{
	return (insn & A64_B_MASK) == A64_BL;
}

/* The target of the b or bl at pc: imm26, in words, signed. */
static inline uintptr_t a64_branch_target(uintptr_t pc, uint32_t insn)
{
	return pc + (uintptr_t)(int64_t)((int32_t)(insn << 6) >> 4);
}

/* "bl target" at pc; -1 if target is out of reach or misaligned. */
static inline int a64_encode_bl(uintptr_t pc, uintptr_t target, uint32_t *insn)
{
	int64_t off = (int64_t)(target - pc);

	if ((off & 3) || off < -(1ll << 27) || off >= (1ll << 27))
		return -1;
	*insn = A64_BL | ((uint32_t)(off >> 2) & 0x03ffffffu);
	return 0;
}

#define A64_ADRP_MASK	0x9f000000u
#define A64_ADRP	0x90000000u
#define A64_ADD_IMM	0x91000000u	/* add xd, xn, #imm12 */

/* ADRP's 21-bit page count: immlo at 29, immhi at 5. */
static inline int64_t a64_adrp_pages(uint32_t insn)
{
	uint32_t imm = (insn >> 5 & 0x7ffff) << 2 | (insn >> 29 & 3);

	return (int64_t)((int32_t)(imm << 11) >> 11);	/* the shift unsigned */
}

/*
 * A detour copy's B, BL or ADRP word at p, made to run at "from", made
 * to mean the same at "to"; -1 if it is none of those or no longer
 * reaches (detour files, core/detours.c).  Both sides use it: the
 * fntrace program on any host (little-endian words), the runtime.
 */
static inline int a64_reaim(uint8_t *p, uint64_t from, uint64_t to)
{
	uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;
	int64_t off;

	if (a64_is_b(w) || a64_is_bl(w)) {
		off = (int64_t)(from + (uint64_t)(int64_t)((int32_t)(w << 6) >> 4) - to);
		if (off < -(1ll << 27) || off >= (1ll << 27))
			return -1;
		w = (w & A64_B_MASK) | ((uint32_t)(off >> 2) & 0x03ffffffu);
	} else if ((w & A64_ADRP_MASK) == A64_ADRP) {
		off = (int64_t)((from >> 12) - (to >> 12)) + a64_adrp_pages(w);
		if (off < -(1ll << 20) || off >= (1ll << 20))
			return -1;
		w = (w & 0x9f00001fu) | ((uint32_t)off & 3) << 29 |
		    ((uint32_t)(off >> 2) & 0x7ffff) << 5;
	} else {
		return -1;
	}
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(w >> 8 * i);
	return 0;
}

#endif
