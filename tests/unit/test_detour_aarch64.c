// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64 detours: every relocation's exact words (src/arch/aarch64/
 * detour.c), with the trampoline near enough for each short form, then
 * too far for it, and every refusal.  Host code reading aarch64 words:
 * it runs natively.
 */
#include "detour_fixture.h"

#include <elf.h>

#define START		0x400000ull
#define NEAR		(START + 0x1000)	/* in reach of every form */
#define MID		(START + 0x200000)	/* of b and adrp, not of b.cond, cbz, tbz, adr, ldr */
#define FAR_TARGET	(START - 0x7000000)	/* 112 MB before the function ... */
#define FAR_TRAMP	(START + 0x2000000)	/* ... 144 MB before the trampoline */

/* The copy of the one word at START for tramp, compared with want. */
static int word_moves_to(struct detour_dec *d, uint32_t insn, uint64_t tramp,
			 const uint32_t *want, size_t nwant)
{
	uint8_t c[4], w[128];

	words_bytes(&insn, 1, c);
	return copy_is(d, c, START, 4, tramp, w, words_bytes(want, nwant, w));
}

#define MOVES_TO(d, insn, tramp, ...)                                                   \
	word_moves_to(d, insn, tramp, (const uint32_t[]){ __VA_ARGS__ },                \
		      sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4)

static void branches(struct detour_dec *d)
{
	CHECK("aarch64 detour: mov x29, sp copied, then b back",
	      MOVES_TO(d, 0x910003fd, MID, 0x910003fd, 0x17f80000));
	CHECK("aarch64 detour: b re-targeted",
	      MOVES_TO(d, 0x14000010, MID, 0x17f80010, 0x17f80000));
	/* ldr x16, 8; br x16; .quad START - 112 MB; b back */
	CHECK("aarch64 detour: b out of reach: through x16",
	      MOVES_TO(d, 0x16400000, FAR_TRAMP, 0x58000050, 0xd61f0200, 0xf9400000, 0xffffffff,
		       0x177ffffd));
	CHECK("aarch64 detour: bl re-targeted",
	      MOVES_TO(d, 0x94000010, MID, 0x97f80010, 0x17f80000));
	/* ldr x16, 12; blr x16; b over the literal; .quad; b back */
	CHECK("aarch64 detour: bl out of reach: blr x16, returning before the literal",
	      MOVES_TO(d, 0x96400000, FAR_TRAMP, 0x58000070, 0xd63f0200, 0x14000003, 0xf9400000,
		       0xffffffff, 0x177ffffc));
	CHECK("aarch64 detour: b.eq re-targeted",
	      MOVES_TO(d, 0x54000080, NEAR, 0x54ff8080, 0x17fffc00));
	/* b.ne over the next; b target; b back */
	CHECK("aarch64 detour: b.eq out of reach: b.ne over a b",
	      MOVES_TO(d, 0x54000080, MID, 0x54000041, 0x17f80003, 0x17f7ffff));
	CHECK("aarch64 detour: b.eq from 32 MB: b.ne over a b",
	      MOVES_TO(d, 0x54000080, FAR_TRAMP, 0x54000041, 0x17800003, 0x177fffff));
	/* b.eq to 1 MB before the function, from 127 MB after it: b.ne over
	 * ldr x16, 8; br x16; .quad target; then b back */
	CHECK("aarch64 detour: b.eq out of b's reach: b.ne over a jump through x16",
	      MOVES_TO(d, 0x54800000, START + 0x7f00000, 0x540000a1, 0x58000050, 0xd61f0200,
		       0x00300000, 0x00000000, 0x1603fffc));
	CHECK("aarch64 detour: cbz re-targeted",
	      MOVES_TO(d, 0xb4000080, NEAR, 0xb4ff8080, 0x17fffc00));
	CHECK("aarch64 detour: cbz out of reach: cbnz over a b",
	      MOVES_TO(d, 0xb4000080, MID, 0xb5000040, 0x17f80003, 0x17f7ffff));
	CHECK("aarch64 detour: tbnz re-targeted",
	      MOVES_TO(d, 0x37080080, NEAR, 0x370f8080, 0x17fffc00));
	CHECK("aarch64 detour: tbnz out of reach: tbz over a b",
	      MOVES_TO(d, 0x37080080, MID, 0x36080040, 0x17f80003, 0x17f7ffff));
}

static void addresses(struct detour_dec *d)
{
	CHECK("aarch64 detour: adr re-targeted",
	      MOVES_TO(d, 0x10000080, NEAR, 0x10ff8080, 0x17fffc00));
	/* adrp x0, START; add x0, x0, #16 */
	CHECK("aarch64 detour: adr out of reach: adrp and add",
	      MOVES_TO(d, 0x10000080, MID, 0x90fff000, 0x91004000, 0x17f7ffff));
	CHECK("aarch64 detour: adrp re-encoded for the trampoline's page",
	      MOVES_TO(d, 0x90000080, MID, 0x90fff080, 0x17f80000));
	CHECK("aarch64 detour: ldr x literal re-targeted",
	      MOVES_TO(d, 0x58000080, NEAR, 0x58ff8080, 0x17fffc00));
	/* adrp x0, START; add x0, x0, #16; ldr x0, [x0] */
	CHECK("aarch64 detour: ldr x literal out of reach: through its address",
	      MOVES_TO(d, 0x58000080, MID, 0x90fff000, 0x91004000, 0xf9400000, 0x17f7fffe));
	CHECK("aarch64 detour: ldr w literal out of reach",
	      MOVES_TO(d, 0x18000080, MID, 0x90fff000, 0x91004000, 0xb9400000, 0x17f7fffe));
	CHECK("aarch64 detour: ldrsw literal out of reach",
	      MOVES_TO(d, 0x98000080, MID, 0x90fff000, 0x91004000, 0xb9800000, 0x17f7fffe));
	CHECK("aarch64 detour: ldr s literal out of reach: x16 holds the address",
	      MOVES_TO(d, 0x1c000080, MID, 0x90fff010, 0x91004210, 0xbd400200, 0x17f7fffe));
	CHECK("aarch64 detour: ldr d literal out of reach",
	      MOVES_TO(d, 0x5c000080, MID, 0x90fff010, 0x91004210, 0xfd400200, 0x17f7fffe));
	CHECK("aarch64 detour: ldr q literal out of reach",
	      MOVES_TO(d, 0x9c000080, MID, 0x90fff010, 0x91004210, 0x3dc00200, 0x17f7fffe));
	CHECK("aarch64 detour: prfm literal re-targeted",
	      MOVES_TO(d, 0xd8000080, NEAR, 0xd8ff8080, 0x17fffc00));
	CHECK("aarch64 detour: prfm literal out of reach: a nop",
	      MOVES_TO(d, 0xd8000080, MID, 0xd503201f, 0x17f80000));
}

static int copy_of(struct detour_dec *d, uint32_t insn, uint64_t tramp)
{
	uint8_t c[4], out[64];

	words_bytes(&insn, 1, c);
	return detour_copy(d, c, START, 4, tramp, out, sizeof(out));
}

static void reach(struct detour_dec *d)
{
	uint8_t out[4];

	CHECK("aarch64 detour: entry b to the trampoline",
	      detour_entry(d, START, MID, out) == 4 && unit_bytes_are(out, "00 00 08 14"));
	CHECK("aarch64 detour: entry b at the edge of reach",
	      detour_entry(d, START, START + 0x7fffffc, out) == 4);
	CHECK("aarch64 detour: trampoline 128 MB away out of reach",
	      detour_entry(d, START, START + 0x8000000, out) == -DETOUR_OUT_OF_REACH);
	CHECK("aarch64 detour: trampoline not word-aligned",
	      detour_entry(d, START, MID + 2, out) == -DETOUR_OUT_OF_REACH);
	CHECK("aarch64 detour: no way back from 200 MB",
	      copy_of(d, 0x910003fd, START + 200 * 0x100000) == -DETOUR_OUT_OF_REACH);
	CHECK("aarch64 detour: ldr xzr literal out of reach cannot move",
	      copy_of(d, 0x5800009f, MID) == -DETOUR_UNMOVABLE);
}

/* The plan of n words as one function at START. */
static struct detour_plan plan_words(struct detour_dec *d, const uint32_t *w, size_t n)
{
	uint8_t c[64];

	return plan_one(d, c, START, words_bytes(w, n, c));
}

#define PLAN(d, ...) plan_words(d, (const uint32_t[]){ __VA_ARGS__ },                    \
				sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4)

static void plans(struct detour_dec *d)
{
	struct detour_plan p;

	p = PLAN(d, 0xa9bf7bfd, 0x910003fd, 0xd65f03c0);
	CHECK("aarch64 plan: stp x29, x30: one word replaced",
	      p.refusal == DETOUR_OK && p.patch == START && p.len == 4 && p.moved == 1);
	p = PLAN(d, 0xd503245f, 0xa9bf7bfd, 0xd65f03c0);
	CHECK("aarch64 plan: bti c kept in place, the b after it",
	      p.refusal == DETOUR_OK && p.patch == START + 4 && p.len == 4);
	p = PLAN(d, 0xd503233f, 0xa9bf7bfd, 0xd65f03c0);
	CHECK("aarch64 plan: paciasp kept in place", p.refusal == DETOUR_OK && p.patch == START + 4);
	p = PLAN(d, 0xd63f0200, 0xd65f03c0);
	CHECK("aarch64 plan: blr x16 first: it returns after the replaced word",
	      p.refusal == DETOUR_OK);
	p = PLAN(d, 0xd65f03c0);
	CHECK("aarch64 plan: a lone ret is long enough", p.refusal == DETOUR_OK);
	p = PLAN(d, 0xd503245f);
	CHECK("aarch64 plan: a lone bti c too short", p.refusal == DETOUR_TOO_SHORT);
	/* ldrb w1, [x2, w0, uxtw]; adr x3, 0; add x1, x3, w1, sxtb #2; br x1 */
	p = PLAN(d, 0x38604841, 0x10000003, 0x8b218861, 0xd61f0020);
	CHECK("aarch64 plan: a jump table: one word replaced, nothing lands inside it",
	      p.refusal == DETOUR_OK);
	p = PLAN(d, 0xd1000400, 0xb5ffffe0, 0xd65f03c0);
	CHECK("aarch64 plan: a loop back to the entry", p.refusal == DETOUR_OK);
	p = PLAN(d, 0xa9bf7bfd, 0xd65f0bff);
	CHECK("aarch64 plan: an unknown word after the entry stepped over",
	      p.refusal == DETOUR_OK);
	p = PLAN(d, 0xd65f0bff, 0xd65f03c0);
	CHECK("aarch64 plan: an unknown word at the entry refused",
	      p.refusal == DETOUR_UNDECODABLE && p.why_at == START);
}

int main(void)
{
	struct detour_dec d;

	CHECK("aarch64 detour: capstone opens", detour_open(&d, EM_AARCH64) == 0);
	branches(&d);
	addresses(&d);
	reach(&d);
	plans(&d);
	detour_close(&d);
	return unit_done();
}
