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
#define A64_LDR_X16_8	0x58000050u	/* ldr x16, <pc + 8> */
#define A64_BR_X16	0xd61f0200u
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

#endif
