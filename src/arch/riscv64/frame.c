// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64: where a -pg site's function keeps its return address.
 *
 * gcc -O2 -pg sets up no frame pointer and passes the parent's return
 * address in a0 (its value, not its slot); clang -pg has no "mv a0, ra"
 * at all.  What both do is save ra in their prologue before the call:
 *
 *   func:  addi sp, sp, -32        (c.addi sp / c.addi16sp / addi)
 *          sd   ra, 24(sp)         (c.sdsp / sd)
 *          ...
 *   site:  call _mcount
 *
 * So the prologue is read, from the function's start to the site: the
 * sp adjustments it makes and the offset of "sd ra".  The graph tracer
 * needs the slot to be CFA - 8, where return_to_handler looks for it
 * (every frame gcc and clang lay out keeps ra there); anything else
 * (a prologue we cannot follow) gives NULL: the call is traced, with no
 * parent and no graph frame.
 */
#include "../../core/ftrace.h"
#include "riscv64.h"

#include <string.h>

#define MAX_PROLOGUE 256	/* bytes read before the site, at most */
#define NO_SLOT INT64_MIN

struct prologue {
	int64_t sp;		/* sp now - sp at entry */
	int64_t ra;		/* where ra went, from sp at entry */
	int64_t reg[32];	/* constants loaded by lui/li, for large frames */
};

static int64_t sext(uint32_t v, unsigned bits)
{
	return (int64_t)((uint64_t)v << (64 - bits)) >> (64 - bits);
}

/* c.addi sp, imm / c.addi16sp imm / c.sdsp ra, imm(sp) */
static void compressed(struct prologue *p, uint16_t h)
{
	unsigned op = h & 3, f3 = h >> 13, rd = (h >> 7) & 0x1f;

	if (op == 1 && f3 == 0 && rd == RV_SP)
		p->sp += sext((h >> 12 & 1) << 5 | (h >> 2 & 0x1f), 6);
	else if (op == 1 && f3 == 3 && rd == RV_SP)
		p->sp += sext((h >> 12 & 1) << 9 | (h >> 3 & 3) << 7 | (h >> 5 & 1) << 6 |
			      (h >> 2 & 1) << 5 | (h >> 6 & 1) << 4, 10);
	else if (op == 2 && f3 == 7 && ((h >> 2) & 0x1f) == RV_RA)
		p->ra = p->sp + ((h >> 10 & 7) << 3 | (h >> 7 & 7) << 6);
}

/* addi/lui into constants, addi/add/sub on sp, sd ra */
static void full(struct prologue *p, uint32_t i)
{
	unsigned rd = rv_rd(i), rs1 = rv_rs1(i), f3 = rv_funct3(i);

	switch (rv_opcode(i)) {
	case RV_OP_LUI:
		p->reg[rd] = rv_imm_u(i);
		break;
	case RV_OP_IMM:
	case RV_OP_IMM + 8:	/* addiw */
		if (f3 == 0 && rd == RV_SP && rs1 == RV_SP)
			p->sp += rv_imm_i(i);
		else if (f3 == 0)
			p->reg[rd] = p->reg[rs1] + rv_imm_i(i);
		break;
	case RV_OP_OP:
		if (rd == RV_SP && rs1 == RV_SP && f3 == 0)
			p->sp += (i >> 30 & 1) ? -p->reg[rv_rs2(i)] : p->reg[rv_rs2(i)];
		break;
	case RV_OP_STORE:
		if (f3 == 3 && rs1 == RV_SP && rv_rs2(i) == RV_RA)
			p->ra = p->sp + rv_imm_s(i);
		break;
	}
	p->reg[RV_ZERO] = 0;
}

static void read_prologue(struct prologue *p, uintptr_t pc, uintptr_t end)
{
	while (pc < end) {
		uint16_t h;
		uint32_t i;

		memcpy(&h, (const void *)pc, 2);
		if ((h & 3) != 3) {
			compressed(p, h);
			pc += 2;
			continue;
		}
		memcpy(&i, (const void *)pc, 4);
		full(p, i);
		pc += 4;
	}
}

uintptr_t *riscv64_frame_slot(uintptr_t self_ret, uintptr_t sp)
{
	const struct ftrace_rec *rec = ftrace_rec_get(ftrace_rec_lookup(self_ret));
	struct prologue p = { .sp = 0, .ra = NO_SLOT };

	if (!rec || rec->kind != SITE_FRAME || rec->ip - rec->func > MAX_PROLOGUE)
		return NULL;
	read_prologue(&p, rec->func, rec->ip);
	if (p.ra != -8)
		return NULL;
	return (uintptr_t *)(sp - p.sp - 8);
}
