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
 *          lui  t0, -2             (a frame over 2 KiB: a constant ...)
 *          add  sp, sp, t0         (... added, or subtracted)
 *   site:  call _mcount
 *
 * So the prologue is read, from the function's start to the site: the
 * sp adjustments it makes and the offset of "sd ra".  The graph tracer
 * needs the slot to be CFA - 8, where return_to_handler looks for it
 * (every frame gcc and clang lay out keeps ra there).  Anything else,
 * or a change of sp this cannot follow, gives NULL: the call is traced
 * with no parent and no graph frame, never with a wrong slot.
 */
#include "../../core/ftrace.h"
#include "riscv64.h"

#include <string.h>

#define MAX_PROLOGUE 256	/* bytes read before the site, at most */
#define NO_SLOT INT64_MIN

struct prologue {
	int64_t sp;		/* sp now - sp at entry */
	int64_t ra;		/* where ra went, from sp at entry */
	int lost;		/* sp changed in a way not followed */
	uint32_t known;		/* registers holding a constant, in reg[] */
	int64_t reg[32];
};

static int64_t sext(uint64_t v, unsigned bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static void set_reg(struct prologue *p, unsigned rd, int64_t v)
{
	p->reg[rd] = v;
	p->known |= 1u << rd;
	if (rd == RV_SP)
		p->lost = 1;
}

/* rd was written with something not followed. */
static void clobber(struct prologue *p, unsigned rd)
{
	p->known &= ~(1u << rd);
	if (rd == RV_SP)
		p->lost = 1;
}

static int known(const struct prologue *p, unsigned r)
{
	return r == RV_ZERO || ((p->known >> r) & 1);
}

/* sp += reg[r], or -= */
static void adjust_sp(struct prologue *p, unsigned r, int sign)
{
	if (!known(p, r))
		p->lost = 1;
	else
		p->sp += sign * (r == RV_ZERO ? 0 : p->reg[r]);
}

/* rd = rs1 + imm (addi, addiw, c.addi, c.addiw), 32-bit if word */
static void add_imm(struct prologue *p, unsigned rd, unsigned rs1, int64_t imm, int word)
{
	int64_t v = (rs1 == RV_ZERO ? 0 : p->reg[rs1]) + imm;

	if (rd == RV_SP && rs1 == RV_SP && !word)
		p->sp += imm;
	else if (rd != RV_ZERO && known(p, rs1))
		set_reg(p, rd, word ? (int32_t)v : v);
	else if (rd != RV_ZERO)
		clobber(p, rd);
}

static void quadrant1(struct prologue *p, uint16_t h)
{
	unsigned f3 = h >> 13, rd = (h >> 7) & 0x1f;
	int64_t imm = sext((h >> 12 & 1) << 5 | (h >> 2 & 0x1f), 6);

	if (f3 == 0 || f3 == 1)				/* c.addi, c.addiw */
		add_imm(p, rd, rd, imm, f3 == 1);
	else if (f3 == 2)				/* c.li */
		set_reg(p, rd, imm);
	else if (f3 == 3 && rd == RV_SP)		/* c.addi16sp */
		p->sp += sext((h >> 12 & 1) << 9 | (h >> 3 & 3) << 7 | (h >> 5 & 1) << 6 |
			      (h >> 2 & 1) << 5 | (h >> 6 & 1) << 4, 10);
	else if (f3 == 3)				/* c.lui */
		set_reg(p, rd, imm * 4096);
	else if (f3 == 4)				/* ALU on x8-x15 */
		clobber(p, 8 + ((h >> 7) & 7));
}

static void quadrant2(struct prologue *p, uint16_t h)
{
	unsigned f3 = h >> 13, rd = (h >> 7) & 0x1f, rs2 = (h >> 2) & 0x1f;

	if (f3 == 7 && rs2 == RV_RA)			/* c.sdsp ra */
		p->ra = p->sp + ((h >> 10 & 7) << 3 | (h >> 7 & 7) << 6);
	else if (f3 == 4 && rs2 && (h >> 12 & 1) && rd == RV_SP)	/* c.add sp, rs2 */
		adjust_sp(p, rs2, 1);
	else if (f3 == 4 && rs2 && !(h >> 12 & 1) && known(p, rs2) && rd != RV_SP)
		set_reg(p, rd, rs2 == RV_ZERO ? 0 : p->reg[rs2]);	/* c.mv */
	else if (f3 <= 4 && rd)				/* c.slli, c.*lsp, c.mv, c.add */
		clobber(p, rd);
}

static void compressed(struct prologue *p, uint16_t h)
{
	if ((h & 3) == 1)
		quadrant1(p, h);
	else if ((h & 3) == 2)
		quadrant2(p, h);
	else if (!(h >> 15 & 1))			/* c.addi4spn and loads */
		clobber(p, 8 + ((h >> 2) & 7));
}

static void full(struct prologue *p, uint32_t i)
{
	unsigned rd = rv_rd(i), rs1 = rv_rs1(i), f3 = rv_funct3(i), op = rv_opcode(i);

	if (op == RV_OP_LUI)
		set_reg(p, rd, rv_imm_u(i));
	else if ((op == RV_OP_IMM || op == RV_OP_IMM + 8) && f3 == 0)	/* addi, addiw */
		add_imm(p, rd, rs1, rv_imm_i(i), op != RV_OP_IMM);
	else if (op == RV_OP_OP && f3 == 0 && rd == RV_SP && rs1 == RV_SP && !(i & 0xbe000000))
		adjust_sp(p, rv_rs2(i), (i >> 30 & 1) ? -1 : 1);	/* add, sub */
	else if (op == RV_OP_STORE && f3 == 3 && rs1 == RV_SP && rv_rs2(i) == RV_RA)
		p->ra = p->sp + rv_imm_s(i);
	else if (op != RV_OP_STORE && op != 0x27 && op != 0x63 && rd)	/* not a store, branch */
		clobber(p, rd);
}

static void read_prologue(struct prologue *p, uintptr_t pc, uintptr_t end)
{
	while (pc < end && !p->lost) {
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
	const struct ftrace_rec *rec = ftrace_rec_get(ftrace_rec_lookup_outside(self_ret));
	struct prologue p = { .sp = 0, .ra = NO_SLOT };

	if (!rec || rec->kind != SITE_FRAME || rec->ip - rec->func > MAX_PROLOGUE)
		return NULL;
	read_prologue(&p, rec->func, rec->ip);
	if (p.lost || p.ra != -8)
		return NULL;
	return (uintptr_t *)(sp - p.sp - 8);
}
