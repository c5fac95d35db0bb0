// SPDX-License-Identifier: GPL-2.0
/*
 * mips o32, either endian: the call sites of a relocatable object, for
 * recordmcount, and the check of a site a table names in a linked image
 * (check_site).  find_site, the search of a function's head for a call
 * through the GOT, is not written: it finds nothing, so a linked mips
 * image is traced through a table, or from the relocations ld -q keeps.
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
 */
#include "../arch.h"

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

static const struct recordmcount_desc mips_rmc = {
	.forms = mips_forms,
	.nr_forms = sizeof(mips_forms) / sizeof(mips_forms[0]),
	.word_size = 4,
	.rela = 0,
	.rel_word = R_MIPS_32,
	.rel_none = R_MIPS_NONE,
};

static int mips_find_site(const struct elf_file *f, const struct mcount_targets *t,
			  uint64_t func, uint64_t size, struct site *out)
{
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
	unsigned n = 0;

	if (!p || addr < func || (addr & 3))
		return 0;
	for (unsigned i = 0; !n && i < sizeof(mips_forms) / sizeof(mips_forms[0]); i++)
		if (mcount_form_matches(f, &mips_forms[i], p))
			n = 4 * mips_forms[i].units;
	if (!n && elf_u32(f, p) == NOP && elf_u32(f, p + 4) == NOP)
		n = elf_u32(f, p + 8) == NOP ? 12 : 8;
	if (!n)
		return 0;
	*out = (struct site){ .addr = addr, .func = func, .len = n,
			      .kind = addr == func ? SITE_ENTRY : SITE_FRAME };
	return 1;
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
	.check_site = mips_check_site,
	.rmc = &mips_rmc,
};
