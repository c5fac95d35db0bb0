// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64 detours (arch.h, struct detour_arch): the entry's one
 * instruction becomes a B to a trampoline within 128 MB, after a BTI or
 * PACIASP/PACIBSP if there is one (an indirect call must still land on
 * it).  One word is replaced, so no branch can land inside it, and no
 * longer form is taken: the runtime finds a trampoline page within reach,
 * or the function is not patched.
 *
 *	before				after
 *	f:   bti  c			f:   bti  c
 *	     adrp x0, page		     b    tramp
 *	     ...			     ...
 *
 *	tramp: adrp x0, page (re-encoded for tramp's page); b f+8
 *
 * The moved word is copied unless it depends on its address: a branch or
 * literal load is re-encoded when its target is still in reach, else it
 * goes through x16, which the procedure call standard lets a veneer
 * clobber at any call, so nothing is live in it at a function's entry;
 * an ADR or a literal load computes its address with ADRP and ADD.
 * A literal (.quad) is read unaligned, which Linux allows user space.
 * Words and literals are little-endian, whatever the host's order (the
 * planner takes no big-endian image).
 */
#include "../../detour/detour.h"
#include "aarch64.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <string.h>

#define A64_LDR_X_LIT	0x58000000u	/* ldr xt, label */
#define X16		16

/* A field of a word: imm of bits at shift, in units of 4 bytes. */
struct field {
	uint8_t shift, bits;
};

static const struct field imm26 = { 0, 26 }, imm19 = { 5, 19 }, imm14 = { 5, 14 };

static int fits(struct field f, int64_t off)
{
	int64_t lim = (int64_t)1 << (f.bits + 1);	/* bytes: 4 << (bits - 1) */

	return !(off & 3) && off >= -lim && off < lim;
}

static uint32_t with(uint32_t w, struct field f, int64_t off)
{
	uint32_t mask = ((1u << f.bits) - 1) << f.shift;

	return (w & ~mask) | (((uint32_t)(off >> 2) << f.shift) & mask);
}

static uint32_t word_of(const cs_insn *insn)
{
	const uint8_t *b = insn->bytes;

	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/* v in little-endian order, whatever the host's. */
static void put_le(uint8_t *out, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		out[i] = v >> (8 * i);
}

/* The words out[0..n), then a literal: the length in bytes. */
static int emit(uint8_t *out, const uint32_t *w, unsigned n, const uint64_t *lit)
{
	for (unsigned i = 0; i < n; i++)
		put_le(out + 4 * i, w[i], 4);
	if (!lit)
		return 4 * n;
	put_le(out + 4 * n, *lit, 8);
	return 4 * n + 8;
}

/* The last operand: where a branch, ADR or literal load points. */
static uint64_t target_of(const cs_insn *insn)
{
	const cs_arm64 *a = &insn->detail->arm64;

	return a->op_count ? (uint64_t)a->operands[a->op_count - 1].imm : 0;
}

static int is_landing(uint32_t w)
{
	return (w & 0xffffff3fu) == 0xd503241fu ||	/* bti, bti c, bti j, bti jc */
	       w == 0xd503233fu || w == 0xd503237fu;	/* paciasp, pacibsp */
}

static int is_literal_load(const cs_insn *insn)
{
	return (word_of(insn) & 0x3b000000u) == 0x18000000u;	/* ldr/ldrsw/prfm label */
}

static enum detour_kind classify(const struct cs_insn *insn, uint64_t *target)
{
	const cs_arm64 *a = &insn->detail->arm64;

	*target = target_of(insn);
	switch (insn->id) {
	case ARM64_INS_B:	/* b.al and b.nv branch always */
		return a->cc == ARM64_CC_INVALID || a->cc == ARM64_CC_AL || a->cc == ARM64_CC_NV
			       ? DETOUR_JUMP : DETOUR_COND;
	case ARM64_INS_BL:
		return DETOUR_CALL;
	case ARM64_INS_CBZ: case ARM64_INS_CBNZ: case ARM64_INS_TBZ: case ARM64_INS_TBNZ:
		return DETOUR_COND;
	case ARM64_INS_ADR: case ARM64_INS_ADRP:
		return DETOUR_PCREL;
	case ARM64_INS_BR:
		return DETOUR_INDIRECT;
	case ARM64_INS_BLR:
		return DETOUR_CALL_INDIRECT;
	case ARM64_INS_RET:
		return DETOUR_RET;
	case ARM64_INS_NOP:
		return DETOUR_PADDING;
	case ARM64_INS_BRK:
		return DETOUR_TRAP;
	}
	if (is_landing(word_of(insn)))
		return DETOUR_LANDING;
	return is_literal_load(insn) ? DETOUR_PCREL : DETOUR_PLAIN;
}

/* b target from pc, or through x16 when out of its reach. */
static int jump_to(uint64_t pc, uint64_t target, uint8_t *out)
{
	int64_t off = (int64_t)(target - pc);

	if (fits(imm26, off))
		return emit(out, (uint32_t[]){ with(A64_B, imm26, off) }, 1, NULL);
	/* ldr x16, 8; br x16; .quad target */
	return emit(out, (uint32_t[]){ A64_LDR_X_LIT | 2 << 5 | X16, A64_BR_X16 }, 2, &target);
}

static int relocate_call(uint64_t pc, uint64_t target, uint8_t *out)
{
	int64_t off = (int64_t)(target - pc);

	if (fits(imm26, off))
		return emit(out, (uint32_t[]){ with(A64_BL, imm26, off) }, 1, NULL);
	/* ldr x16, 12; blr x16; b over the literal; .quad target */
	return emit(out, (uint32_t[]){ A64_LDR_X_LIT | 3 << 5 | X16, A64_BLR_X16,
				       with(A64_B, imm26, 12) }, 3, &target);
}

/*
 * B.cond, CBZ/CBNZ, TBZ/TBNZ: re-targeted where they reach, else the
 * opposite test branches over a jump to the target:
 *
 *	b.ne 1f			(for b.eq target)
 *	b    target		(or ldr x16, 8; br x16; .quad target)
 *   1:
 */
static int relocate_cond(uint32_t w, struct field f, uint32_t invert, uint64_t pc,
			 uint64_t target, uint8_t *out)
{
	int64_t off = (int64_t)(target - pc);
	int n;

	if (fits(f, off))
		return emit(out, (uint32_t[]){ with(w, f, off) }, 1, NULL);
	n = jump_to(pc + 4, target, out + 4);
	emit(out, (uint32_t[]){ with(w ^ invert, f, 4 + n) }, 1, NULL);
	return 4 + n;
}

/* xd = value: ldr xd, 8; b over the literal; .quad value. */
static int load_value(unsigned rd, uint64_t value, uint8_t *out)
{
	return emit(out, (uint32_t[]){ A64_LDR_X_LIT | 2 << 5 | rd, with(A64_B, imm26, 12) }, 2,
		    &value);
}

/* ADR's 21 bits: immlo at 29, immhi at 5; ADRP's count pages. */
static uint32_t adr_with(uint32_t w, int64_t imm)
{
	return (w & 0x9f00001fu) | ((uint32_t)(imm & 3) << 29) |
	       (((uint32_t)(imm >> 2) & 0x7ffff) << 5);
}

static int adr_reaches(int64_t imm)
{
	return imm >= -(1 << 20) && imm < (1 << 20);
}

/*
 * xd = target, from pc, by an address the copy computes, not holds:
 *	adrp xd, target			(a field the runtime re-aims)
 *	add  xd, xd, #:lo12:target
 * 0 if the page is beyond ADRP's 4 GB.
 */
static int address_of(unsigned rd, uint64_t pc, uint64_t target, uint8_t *out)
{
	int64_t pages = (int64_t)((target >> 12) - (pc >> 12));

	if (!adr_reaches(pages))
		return 0;
	return emit(out, (uint32_t[]){ adr_with(A64_ADRP | rd, pages),
				       A64_ADD_IMM | (uint32_t)(target & 0xfff) << 10 |
					       rd << 5 | rd }, 2, NULL);
}

/* ADR beyond its 1 MB: ADRP and ADD; a literal (not planned) beyond. */
static int relocate_adr(uint32_t w, int page, uint64_t pc, uint64_t target, uint8_t *out)
{
	int64_t imm = page ? (int64_t)((target >> 12) - (pc >> 12)) : (int64_t)(target - pc);
	int n;

	if (adr_reaches(imm))
		return emit(out, (uint32_t[]){ adr_with(w, imm) }, 1, NULL);
	if (!page && (n = address_of(w & 31, pc, target, out)))
		return n;
	return load_value(w & 31, target, out);
}

/*
 * A literal load: re-targeted where it reaches, else through the address,
 * computed (a copy holds no address: the runtime could not re-aim it):
 *	adrp xt, target		(x16 for a SIMD register)
 *	add  xt, xt, #:lo12:target
 *	ldr  wt, [xt]		(the load itself: ldr w/x, ldrsw, ldr s/d/q)
 * A prefetch out of reach becomes a nop.
 */
static const uint32_t load_via_base[2][4] = {
	{ 0xb9400000u, 0xf9400000u, 0xb9800000u, 0 },		/* ldr w, ldr x, ldrsw, prfm */
	{ 0xbd400000u, 0xfd400000u, 0x3dc00000u, 0 },		/* ldr s, ldr d, ldr q */
};

static int relocate_literal(uint32_t w, uint64_t pc, uint64_t target, uint8_t *out)
{
	unsigned opc = w >> 30, simd = (w >> 26) & 1, rt = w & 31;
	unsigned base = simd ? X16 : rt;
	int64_t off = (int64_t)(target - pc);
	int n;

	if (fits(imm19, off))
		return emit(out, (uint32_t[]){ with(w, imm19, off) }, 1, NULL);
	if (!simd && rt == 31)
		return -DETOUR_UNMOVABLE;	/* xzr: as a base it would be sp */
	if (!load_via_base[simd][opc])
		return simd ? -DETOUR_UNMOVABLE : emit(out, (uint32_t[]){ A64_NOP }, 1, NULL);
	if (!(n = address_of(base, pc, target, out)))
		return -DETOUR_OUT_OF_REACH;
	return n + emit(out + n, (uint32_t[]){ load_via_base[simd][opc] | base << 5 | rt }, 1,
			NULL);
}

static int relocate(const struct cs_insn *insn, uint64_t pc, uint8_t *out, size_t room)
{
	uint32_t w = word_of(insn);
	uint64_t target;
	enum detour_kind k = classify(insn, &target);

	if (room < DETOUR_MAX_RELOC)
		return -DETOUR_NO_ROOM;
	switch (insn->id) {
	case ARM64_INS_B:
		return k == DETOUR_JUMP ? jump_to(pc, target, out)
					: relocate_cond(w, imm19, 1, pc, target, out);
	case ARM64_INS_BL:
		return relocate_call(pc, target, out);
	case ARM64_INS_CBZ: case ARM64_INS_CBNZ:
		return relocate_cond(w, imm19, 1u << 24, pc, target, out);
	case ARM64_INS_TBZ: case ARM64_INS_TBNZ:
		return relocate_cond(w, imm14, 1u << 24, pc, target, out);
	case ARM64_INS_ADR: case ARM64_INS_ADRP:
		return relocate_adr(w, insn->id == ARM64_INS_ADRP, pc, target, out);
	}
	if (k == DETOUR_PCREL)
		return relocate_literal(w, pc, target, out);
	return emit(out, &w, 1, NULL);
}

static int write_jump(uint64_t from, uint64_t to, uint8_t *out)
{
	int64_t off = (int64_t)(to - from);

	if (!fits(imm26, off))
		return -1;
	emit(out, (uint32_t[]){ with(A64_B, imm26, off) }, 1, NULL);
	return 0;
}

const struct detour_arch detour_aarch64 = {
	.machine = EM_AARCH64,
	.cs_arch = CS_ARCH_ARM64,
	.cs_mode = CS_MODE_ARM,
	.jump_len = 4,
	.fixed_len = 4,
	.classify = classify,
	.relocate = relocate,
	.write_jump = write_jump,
	/* Planned 16 MB away: a B.cond, CBZ or TBZ (1 MB at most, 32 KB)
	 * takes its form with a B, as from any stub; a B, BL or ADRP
	 * stays, its field re-aimed by the runtime within 128 MB. */
	.reaim = a64_reaim,
	.plan_far = 16u << 20,
	.plan_step = 4096,
};
