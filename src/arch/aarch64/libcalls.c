// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64 library calls (core/libcalls.c): the stub a GOT slot points at
 * while its calls are traced, and which slots -fno-plt code only calls
 * through.
 */
#include "../arch.h"
#include "aarch64.h"

#include <string.h>

#define A64_LDR_LIT_X16	0x58000010u	/* ldr x16, <pc + imm19 * 4> */
#define A64_UDF		0x00000000u	/* udf #0: never reached */

static void put(uint8_t *code, unsigned word, uint32_t v)
{
	memcpy(code + 4 * word, &v, 4);
}

/* "ldr x16, <the word off bytes on from this one>" */
static uint32_t ldr_x16_at(uintptr_t off)
{
	return A64_LDR_LIT_X16 | (uint32_t)((off >> 2) & 0x7ffff) << 5;
}

/*
 * A library call's stub, its words word_off bytes on (a page: within a
 * literal load's 1 MB):
 *
 *   aa1e03e9   mov  x9, x30         as a patchable entry's site
 *   58xxxx10   ldr  x16, caller     word_off - 4 on
 *   d63f0200   blr  x16             ftrace_caller; returns to stub + 12
 *   58xxxx10   ldr  x16, target     word_off + 8 - 12 on
 *   d61f0200   br   x16             x30: the caller's return address, or
 *   00000000   udf                  return_to_handler
 *
 * Entered by the PLT's "br x17" (or -fno-plt's "blr"), x30 the caller's
 * return address, as at a function's first instruction; x16 and x17 are
 * the PLT's and free.  The library function is entered by "br x16", which
 * its "bti c" accepts.
 */
unsigned arch_libcall_stub(uint8_t *code, uintptr_t word_off)
{
	put(code, 0, A64_MOV_X9_X30);
	put(code, 1, ldr_x16_at(word_off - 4));
	put(code, 2, A64_BLR_X16);
	put(code, 3, ldr_x16_at(word_off + 8 - 12));
	put(code, 4, A64_BR_X16);
	put(code, 5, A64_UDF);
	put(code, 6, A64_UDF);
	put(code, 7, A64_UDF);
	return 12;
}

static uint32_t word_at(const uint8_t *text, uint64_t i)
{
	uint32_t w;

	memcpy(&w, text + 4 * i, 4);
	return w;
}

/* The register fields word w has, by its encoding group: one bit per
 * field, Rd/Rt (bits 0-4), Rn (5-9), Rt2/Ra (10-14), Rm (16-20). */
#define F_RD	1u
#define F_RN	2u
#define F_RA	4u
#define F_RM	8u

static unsigned reg_fields(uint32_t w)
{
	unsigned op0 = w >> 25 & 0xf;

	if ((op0 & 0xe) == 0x8)			/* data processing, immediate */
		return (w & 0x1f000000u) == 0x10000000u ? F_RD :	/* ADR, ADRP */
		       (w & 0x1f800000u) == 0x12800000u ? F_RD :	/* MOVN/Z/K */
		       (w & 0x1f800000u) == 0x13800000u ? F_RD | F_RN | F_RM :	/* EXTR */
		       F_RD | F_RN;
	if ((op0 & 0x5) == 0x4) {		/* loads and stores */
		if ((w & 0x38000000u) == 0x28000000u)
			return F_RD | F_RN | F_RA;			/* pairs */
		if ((w & 0x3b000000u) == 0x39000000u)
			return F_RD | F_RN;				/* unsigned offset */
		if ((w & 0x3b200c00u) == 0x38200800u)
			return F_RD | F_RN | F_RM;			/* register offset */
		if ((w & 0x3b000000u) == 0x18000000u)
			return F_RD;					/* literal */
		return F_RD | F_RN | F_RA | F_RM;			/* anything else */
	}
	if ((op0 & 0x7) == 0x5)			/* data processing, register */
		return F_RD | F_RN | F_RM | ((w & 0x1f000000u) == 0x1b000000u ? F_RA : 0);
	return F_RD | F_RN | F_RA | F_RM;	/* the rest: every field, to be safe */
}

/* Does word w name register r?  Over-reporting only leaves a slot alone. */
static int names_reg(uint32_t w, unsigned r)
{
	unsigned f = reg_fields(w);

	return ((f & F_RD) && (w & 31) == r) || ((f & F_RN) && (w >> 5 & 31) == r) ||
	       ((f & F_RA) && (w >> 10 & 31) == r) || ((f & F_RM) && (w >> 16 & 31) == r);
}

/* B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, BR/BLR/RET: control leaves. */
static int is_branch(uint32_t w)
{
	return (w & 0x7c000000u) == 0x14000000u || (w & 0xff000010u) == 0x54000000u ||
	       (w & 0x7e000000u) == 0x34000000u || (w & 0x7e000000u) == 0x36000000u ||
	       (w & 0xfe000000u) == 0xd6000000u;
}

/*
 * The use of a slot loaded into x<rt> at word i: called if the first
 * later word that names x<rt>, within a few and before any branch, is
 * "blr x<rt>" or "br x<rt>" (gcc's -fno-plt: adrp; ldr; argument moves;
 * blr).
 */
static uint8_t use_of_load(const uint8_t *text, uint64_t words, uint64_t i, unsigned rt)
{
	for (uint64_t j = i + 1; j < words && j <= i + 8; j++) {
		uint32_t w = word_at(text, j);

		if (w == (0xd63f0000u | rt << 5) || w == (0xd61f0000u | rt << 5))
			return ARCH_GOT_CALLED;
		if (is_branch(w) || names_reg(w, rt))
			return ARCH_GOT_OTHER;
	}
	return ARCH_GOT_OTHER;
}

/* The page an ADRP put in x<rn> for the word at i to use: the nearest
 * ADRP to x<rn> within 16 words before it, with no word between that may
 * write x<rn>; 1 if found. */
static int base_page(const uint8_t *text, uint64_t vaddr, uint64_t i, unsigned rn,
		     uint64_t *page)
{
	for (uint64_t j = i; j-- > 0 && j + 16 >= i;) {
		uint32_t w = word_at(text, j);

		if ((w & 31) != rn)
			continue;
		if ((w & A64_ADRP_MASK) != A64_ADRP)
			return 0;
		*page = ((vaddr + 4 * j) & ~(uint64_t)0xfff) + (uint64_t)(a64_adrp_pages(w) << 12);
		return 1;
	}
	return 0;
}

/* Every slot whose place in its page is lo12: an other use. */
static void others_at(const uint64_t *slots, unsigned n, uint64_t lo12, uint8_t *use)
{
	for (unsigned k = 0; k < n; k++)
		if ((slots[k] & 0xfff) == lo12)
			use[k] |= ARCH_GOT_OTHER;
}

/* A word that takes a slot's place in its page from a register, "ldr xT,
 * [xN, #lo12]" (load: 1) or "add xD, xN, #lo12" (load: 0): the slot it
 * reaches if its ADRP is found, every slot it may reach if not. */
static void use_by_lo12(const uint8_t *text, uint64_t words, uint64_t vaddr, uint64_t i,
			uint64_t lo12, int load, const uint64_t *slots, unsigned n, uint8_t *use)
{
	uint32_t w = word_at(text, i);
	uint64_t page;
	int k;

	if (!base_page(text, vaddr, i, w >> 5 & 31, &page)) {
		others_at(slots, n, lo12, use);
		return;
	}
	if ((k = arch_got_slot_index(slots, n, page + lo12)) >= 0)
		use[k] |= load ? use_of_load(text, words, i, w & 31) : ARCH_GOT_OTHER;
}

/* "ldr xT, <slot>" (a literal load, -mcmodel=tiny) or "adr xD, <slot>". */
static void use_by_pc(const uint8_t *text, uint64_t words, uint64_t vaddr, uint64_t i,
		      const uint64_t *slots, unsigned n, uint8_t *use)
{
	uint32_t w = word_at(text, i);
	uint64_t pc = vaddr + 4 * i;
	int k;

	if ((w & 0xff000000u) == 0x58000000u) {
		k = arch_got_slot_index(slots, n, pc + (uint64_t)((int64_t)((int32_t)(w << 8) >> 13) * 4));
		if (k >= 0)
			use[k] |= use_of_load(text, words, i, w & 31);
	} else if ((w & 0x9f000000u) == 0x10000000u) {
		int64_t imm = a64_adrp_pages(w);	/* ADR's bytes, laid out as ADRP's pages */

		if ((k = arch_got_slot_index(slots, n, pc + (uint64_t)imm)) >= 0)
			use[k] |= ARCH_GOT_OTHER;
	}
}

/*
 * The GOT slots the code refers to, by every word that can name one: a
 * 64-bit load or an add of a slot's place in its page (after the ADRP of
 * its page: gcc's and clang's -fno-plt call is "adrp x1, :got:f; ldr x1,
 * [x1, #:got_lo12:f]; ...; blr x1"), or a pc-relative load or ADR.  A
 * load followed by a call through its register is a call; anything else,
 * or a base whose ADRP is not found, an other use.
 */
void arch_got_uses(const uint8_t *text, uint64_t len, uint64_t vaddr, const uint64_t *slots,
		   unsigned n, uint8_t *use)
{
	uint64_t words = len / 4;
	uint8_t lo12s[4096 / 64] = { 0 };	/* the slots' places in their pages */

	for (unsigned k = 0; k < n; k++)
		lo12s[(slots[k] & 0xfff) / 64] |= (uint8_t)(1u << ((slots[k] & 0xfff) / 8 % 8));
	for (uint64_t i = 0; n && i < words; i++) {
		uint32_t w = word_at(text, i), imm = w >> 10 & 0xfff;

		if ((w & 0xffc00000u) == 0xf9400000u) {
			if (imm * 8 < 4096 && lo12s[imm / 8] & 1u << (imm % 8))
				use_by_lo12(text, words, vaddr, i, imm * 8, 1, slots, n, use);
		} else if ((w & 0xffc00000u) == 0x91000000u) {
			if (!(imm & 7) && lo12s[imm / 64] & 1u << (imm / 8 % 8))
				use_by_lo12(text, words, vaddr, i, imm, 0, slots, n, use);
		} else {
			use_by_pc(text, words, vaddr, i, slots, n, use);
		}
	}
}
