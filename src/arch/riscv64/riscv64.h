/* SPDX-License-Identifier: GPL-2.0 */
/*
 * riscv64: the few instruction encodings the runtime writes and reads.
 */
#ifndef FNTRACE_RISCV64_H
#define FNTRACE_RISCV64_H

#include <stdint.h>

enum {
	RV_ZERO = 0, RV_RA = 1, RV_SP = 2, RV_T0 = 5, RV_T1 = 6,
};

#define RV_OP_LOAD	0x03
#define RV_OP_IMM	0x13
#define RV_OP_AUIPC	0x17
#define RV_OP_STORE	0x23
#define RV_OP_OP	0x33
#define RV_OP_LUI	0x37
#define RV_OP_JALR	0x67
#define RV_OP_JAL	0x6f

#define RV_NOP		0x00000013u	/* addi zero, zero, 0 */
#define RV_J8		0x0080006fu	/* jal zero, +8 */
#define RV_C_NOP	0x0001u
#define RV_C_EBREAK	0x9002u

static inline unsigned rv_opcode(uint32_t i) { return i & 0x7f; }
static inline unsigned rv_rd(uint32_t i) { return (i >> 7) & 0x1f; }
static inline unsigned rv_funct3(uint32_t i) { return (i >> 12) & 7; }
static inline unsigned rv_rs1(uint32_t i) { return (i >> 15) & 0x1f; }
static inline unsigned rv_rs2(uint32_t i) { return (i >> 20) & 0x1f; }
static inline int64_t rv_imm_i(uint32_t i) { return (int32_t)i >> 20; }
static inline int64_t rv_imm_u(uint32_t i) { return (int32_t)(i & 0xfffff000u); }

static inline int64_t rv_imm_s(uint32_t i)
{
	return ((int32_t)i >> 25) * 32 + ((i >> 7) & 0x1f);
}

static inline int64_t rv_imm_j(uint32_t i)
{
	uint32_t v = (i >> 31) << 20 | ((i >> 12) & 0xff) << 12 |
		     ((i >> 20) & 1) << 11 | ((i >> 21) & 0x3ff) << 1;

	return (int32_t)(v << 11) >> 11;
}

static inline int rv_is_jal(uint32_t i, unsigned rd)
{
	return rv_opcode(i) == RV_OP_JAL && rv_rd(i) == rd;
}

static inline int rv_is_auipc(uint32_t i, unsigned rd)
{
	return rv_opcode(i) == RV_OP_AUIPC && rv_rd(i) == rd;
}

/* jalr rd, imm(rs1) */
static inline int rv_is_jalr(uint32_t i, unsigned rd, unsigned rs1)
{
	return rv_opcode(i) == RV_OP_JALR && rv_funct3(i) == 0 && rv_rd(i) == rd &&
	       rv_rs1(i) == rs1;
}

/* jal rd, target from ip: +-1 MiB.  0, or -1 if out of reach. */
static inline int rv_make_jal(uintptr_t ip, uintptr_t target, unsigned rd, uint32_t *out)
{
	int64_t off = (int64_t)(target - ip);
	uint32_t u = (uint32_t)off;

	if (off < -(1 << 20) || off >= (1 << 20) || (off & 1))
		return -1;
	*out = ((u >> 20) & 1) << 31 | ((u >> 1) & 0x3ff) << 21 | ((u >> 11) & 1) << 20 |
	       ((u >> 12) & 0xff) << 12 | rd << 7 | RV_OP_JAL;
	return 0;
}

/* The frame slot a -pg site's function saved ra in (frame.c), or NULL. */
uintptr_t *riscv64_frame_slot(uintptr_t self_ret, uintptr_t sp);

#endif
