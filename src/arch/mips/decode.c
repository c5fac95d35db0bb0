// SPDX-License-Identifier: GPL-2.0
/*
 * mips o32, either endian: the call sites of a relocatable object, for
 * recordmcount, the check of a site a table names in a linked image
 * (check_site), and the search of a function's head for the call
 * (find_site): one of the forms below, whose call goes to mcount through
 * the PLT (non-PIC executables) or through a GOT slot the dynamic symbol
 * table binds to it (PIC: mips has no GLOB_DAT, see got_slots).
 *
 * -pg makes the caller lower sp by 8 around the call and _mcount raise it
 * again (o32 reserves argument slots for it).  A nop in place of the call
 * would leave sp 8 bytes low and the function's epilogue would restore
 * the wrong registers, so every form's site covers the stack adjustment
 * too, and --nop removes both: sp stays balanced, nothing else changes.
 * "move at, ra" is left; at is the assembler's scratch register.
 *
 * gcc, non-PIC (-fno-pic -mno-abicalls), and clang in either mode: the
 * adjustment sits in the delay slot of the call.
 *
 *   before                                         after --nop
 *        03e00825  move  at, ra                         03e00825  move at, ra
 *   r:   0c000000  jal   _mcount   <R_MIPS_26>     r:   00000000  nop
 *   r+4: 27bdfff8  addiu sp, sp, -8                r+4: 00000000  nop
 *
 * gcc -O0 leaves the delay slot empty and adjusts sp before the call:
 *
 *   r-4: 27bdfff8  addiu sp, sp, -8                r-4: 00000000  nop
 *   r:   0c000000  jal   _mcount   <R_MIPS_26>     r:   00000000  nop
 *   r+4: 00000000  nop                             r+4: 00000000  nop
 *
 *   clang PIC: the same, with r: 0320f809 jalr t9 <R_MIPS_JALR _mcount>
 *   (its earlier "lw t9, %call16(_mcount)(gp)" is harmless and stays).
 *   clang -O0 PIC: "addiu sp, sp, -8; jalr t9; nop", like gcc -O0 below.
 *
 * gcc PIC (abicalls, the default, also in shared objects): the adjustment
 * precedes the call, whose delay slot is a nop.
 *
 *   before                                         after --nop
 *        03e00825  move  at, ra                         03e00825  move at, ra
 *   r-4: 27bdfff8  addiu sp, sp, -8                r-4: 00000000  nop
 *   r:   8f990000  lw    t9, %call16(_mcount)(gp)  r:   00000000  nop
 *   r+4: 0320f809  jalr  t9   <R_MIPS_JALR _mcount>  r+4: 00000000  nop
 *        00000000  nop                                  00000000  nop
 *
 * The table entry names the first byte of the site (the jal or jalr, or
 * the addiu before the call when there is one).  In gcc's PIC sequence
 * R_MIPS_CALL16 is the call relocation and R_MIPS_JALR, a hint that lets
 * the linker turn "jalr t9" into a direct branch, is nulled along with it;
 * clang loads t9 earlier, away from the call, so there the R_MIPS_JALR on
 * "jalr t9" marks the call (and the load stays: it is harmless).
 *
 * The runtime's site (find_site, check_site) is narrower: the call word
 * and its delay slot, 8 bytes, which end where the call returns to.  Its
 * nop changes the call word alone (see ftrace.c), and the words before
 * it run as they are.  A table entry's site that --nop made nops is
 * enabled as a call in its last word but one: the runtime's site is
 * that word and the next.
 */
#include "../arch.h"
#include "../../sites/sites.h"

#include <elf.h>

#define ADDIU_SP_M8	0x27bdfff8	/* addiu sp, sp, -8 */
#define JALR_T9		0x0320f809	/* jalr t9 */
#define LW_T9_GP	0x8f990000	/* lw t9, imm(gp) */
#define JAL		0x0c000000	/* jal target */
#define NOP		0x00000000
#define ALL		0xffffffff

static const struct mcount_call_form mips_forms[] = {
	{ "jal _mcount", R_MIPS_26, 0, 4, 2, { JAL, ADDIU_SP_M8 },
	  { 0xfc000000, ALL }, { 0, 0 }, 0, 0 },
	{ "jal _mcount (-O0)", R_MIPS_26, -4, 4, 3, { ADDIU_SP_M8, JAL, NOP },
	  { ALL, 0xfc000000, ALL }, { 0, 0, 0 }, 0, 0 },
	{ "lw t9, %call16(_mcount)(gp); jalr t9", R_MIPS_CALL16, -4, 4, 3,
	  { ADDIU_SP_M8, LW_T9_GP, JALR_T9 }, { ALL, 0xffff0000, ALL }, { 0, 0, 0 },
	  R_MIPS_JALR, 4 },
	{ "jalr t9 (clang)", R_MIPS_JALR, 0, 4, 2, { JALR_T9, ADDIU_SP_M8 },
	  { ALL, ALL }, { 0, 0 }, 0, 0 },
	{ "jalr t9 (clang -O0)", R_MIPS_JALR, -4, 4, 3, { ADDIU_SP_M8, JALR_T9, NOP },
	  { ALL, ALL, ALL }, { 0, 0, 0 }, 0, 0 },
};

/* Not in every <elf.h>: binutils' number. */
#ifndef R_MIPS_PC32
#define R_MIPS_PC32 248
#endif

static const struct recordmcount_desc mips_rmc = {
	.forms = mips_forms,
	.nr_forms = sizeof(mips_forms) / sizeof(mips_forms[0]),
	.word_size = 4,
	.rela = 0,
	.rel_word = R_MIPS_32,
	.rel_pc32 = R_MIPS_PC32,
	.rel_none = R_MIPS_NONE,
};

#define NR_FORMS (sizeof(mips_forms) / sizeof(mips_forms[0]))
#define MOVE_AT_RA	0x03e00825	/* move at, ra */
#define LW_T9		0x8c190000	/* lw t9, imm(base) */
#define LW_T9_MASK	0xfc1f0000	/* clang keeps gp in at or an s register */
#define HEAD_WORDS	32		/* how far into a function the call may be */
#define GP_OFFSET	0x7ff0		/* _gp - the GOT, as ld places it */

static uint32_t word_at(const struct elf_file *f, uint64_t addr)
{
	const uint8_t *p = elf_vaddr_ptr(f, addr, 4);

	return p ? elf_u32(f, p) : ~0u;
}

/*
 * The GOT slot a PIC "jalr t9" at addr calls through: the nearest
 * "lw t9, imm(base)" before it (gcc: just before, base gp; clang: a few
 * words before, base at or s0 holding gp's value), relative to _gp.  0
 * if none.
 */
static uint64_t t9_slot(const struct elf_file *f, uint64_t func, uint64_t addr)
{
	uint64_t got = elf_dynamic(f, DT_PLTGOT);

	for (uint64_t a = addr; got && a > func && a + 8 * 4 > addr; a -= 4) {
		uint32_t w = word_at(f, a - 4);

		if ((w & LW_T9_MASK) == LW_T9)
			return got + GP_OFFSET + (uint64_t)(int64_t)(int16_t)w;
	}
	return 0;
}

/* Does the call word at addr go to mcount? */
static int calls_mcount(const struct elf_file *f, const struct mcount_targets *t,
			uint64_t func, uint64_t addr)
{
	uint32_t w = word_at(f, addr);

	if (w == JALR_T9)
		return mcount_is_slot(t, t9_slot(f, func, addr));
	if ((w & 0xfc000000) != JAL)
		return 0;
	return mcount_is_call(f, t, ((addr + 4) & ~0x0fffffffull) | (w & 0x03ffffff) << 2);
}

/* The call's unit in a form: the jal or the jalr. */
static unsigned call_unit(const struct mcount_call_form *form)
{
	unsigned u = 0;

	while (u + 1 < form->units && form->match[u] != JAL && form->match[u] != JALR_T9)
		u++;
	return u;
}

/*
 * The runtime's site for a call word at call: the call and its delay
 * slot, which holds the stack adjustment or a nop (ftrace.c's forms).
 */
static int runtime_site(const struct elf_file *f, uint64_t call, uint64_t func,
			struct site *out)
{
	uint32_t delay = word_at(f, call + 4);

	if (delay != ADDIU_SP_M8 && delay != NOP)
		return 0;
	*out = (struct site){ .addr = call, .func = func, .len = 8, .kind = SITE_FRAME };
	return 1;
}

/* A form at addr, after "move at, ra", whose call goes to mcount. */
static const struct mcount_call_form *form_at(const struct elf_file *f,
					      const struct mcount_targets *t,
					      uint64_t func, uint64_t addr)
{
	const uint8_t *p = elf_vaddr_ptr(f, addr, 12);

	for (unsigned i = 0; p && i < NR_FORMS; i++) {
		const struct mcount_call_form *form = &mips_forms[i];
		uint64_t call = addr + 4 * call_unit(form);

		if (mcount_form_matches(f, form, p) &&
		    (word_at(f, addr - 4) == MOVE_AT_RA || word_at(f, call - 4) == MOVE_AT_RA) &&
		    calls_mcount(f, t, func, call))
			return form;
	}
	return NULL;
}

static int mips_find_site(const struct elf_file *f, const struct mcount_targets *t,
			  uint64_t func, uint64_t size, struct site *out)
{
	uint64_t end = func + (size < 4 * HEAD_WORDS ? size : 4 * HEAD_WORDS);

	for (uint64_t addr = func + 4; addr + 8 <= end; addr += 4) {
		const struct mcount_call_form *form = form_at(f, t, func, addr);

		if (form)
			return runtime_site(f, addr + 4 * call_unit(form), func, out);
	}
	return 0;
}

/*
 * The GOT slot a non-PIC executable's PLT stub jumps through:
 *   lui t7, %hi(slot); lw t9, %lo(slot)(t7); jr t9; addiu t8, t7, %lo(slot)
 */
static int mips_plt_slot(const struct elf_file *f, uint64_t stub, uint64_t *slot)
{
	uint32_t lui = word_at(f, stub), lw = word_at(f, stub + 4);

	if ((lui & 0xffff0000) != 0x3c0f0000 || (lw & 0xffff0000) != 0x8df90000 ||
	    word_at(f, stub + 8) != 0x03200008)
		return 0;
	*slot = (uint64_t)(uint32_t)((lui << 16) + (uint32_t)(int32_t)(int16_t)lw);
	return 1;
}

/*
 * PIC code calls through the GOT's global part, which the dynamic symbol
 * table binds: symbol i >= DT_MIPS_GOTSYM owns slot
 * DT_MIPS_LOCAL_GOTNO + i - DT_MIPS_GOTSYM.
 */
static int mips_got_slots(const struct elf_file *f, int (*push)(void *arg, uint64_t slot),
			  void *arg)
{
	uint64_t got = elf_dynamic(f, DT_PLTGOT), gotsym = elf_dynamic(f, DT_MIPS_GOTSYM);
	uint64_t local = elf_dynamic(f, DT_MIPS_LOCAL_GOTNO);
	int dynsym = elf_find_section_type(f, SHT_DYNSYM);

	if (!got || !gotsym || dynsym <= 0)
		return 0;
	for (unsigned i = (unsigned)gotsym; i < elf_sym_count(f, (unsigned)dynsym); i++) {
		struct elf_sym s;

		if (elf_sym_get(f, (unsigned)dynsym, i, &s) || !is_mcount_name(s.name))
			continue;
		if (push(arg, got + 4 * (local + i - gotsym)))
			return -1;
	}
	return 0;
}

/*
 * A site a table names: one of the call forms above, linked (their
 * relocated fields are masked), or what --nop made of one: two or three
 * nops, as many as there are (a nopped gcc PIC site is followed by its
 * call's delay-slot nop, which is a nop anyway).
 */
static int mips_check_site(const struct elf_file *f, uint64_t addr, uint64_t func,
			   struct site *out)
{
	const uint8_t *p = elf_vaddr_ptr(f, addr, 12);
	uint64_t call = 0;

	if (!p || addr < func || (addr & 3))
		return 0;
	for (unsigned i = 0; !call && i < NR_FORMS; i++)
		if (mcount_form_matches(f, &mips_forms[i], p))
			call = addr + 4 * call_unit(&mips_forms[i]);
	if (!call && elf_u32(f, p) == NOP && elf_u32(f, p + 4) == NOP)
		call = elf_u32(f, p + 8) == NOP ? addr + 4 : addr;
	return call && runtime_site(f, call, func, out);
}

/* No GLOB_DAT or JUMP_SLOT on mips: GOT slots are bound through the
 * dynamic symbol table; ~0 matches no relocation. */
const struct arch_desc arch_mips = {
	.name = "mips",
	.machine = EM_MIPS,
	.triple = "mips-linux-gnu",
	.rel_relative = R_MIPS_REL32,
	.rel_abs = R_MIPS_32,
	.rel_glob_dat = ~0u,
	.rel_jump_slot = R_MIPS_JUMP_SLOT,
	.find_site = mips_find_site,
	.plt_slot = mips_plt_slot,
	.check_site = mips_check_site,
	.got_slots = mips_got_slots,
	.rmc = &mips_rmc,
	/* No cc_patchable: clang refuses patchable entries on mips. */
};
