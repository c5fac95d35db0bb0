// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64: the call sites of a relocatable object, for recordmcount.  The
 * image-decoding hooks (find_site, check_site) are not written yet: they
 * find nothing, so a linked riscv64 image is only traced through a table.
 *
 * gcc -pg, after the prologue (clang has no "mv a0, ra"):
 *
 *   before                                       after --nop
 *        8506       mv   a0, ra                       8506       mv a0, ra
 *   r:   00000097   auipc ra, 0   <CALL_PLT _mcount,  r:   00000013   nop
 *   r+4: 000080e7   jalr  ra       RELAX>             r+4: 00000013   nop
 *
 * Both relocations become R_RISCV_NONE, so the linker neither resolves
 * nor relaxes the nopped pair.  Left alone, ld relaxes the pair into one
 * 4-byte "jal _mcount" and deletes 4 bytes: the table entry still names
 * the call (it is at the same place), but every site after it in the same
 * section moves, which is what relax_types lets recordmcount warn about.
 */
#include "../arch.h"

#include <elf.h>

/* auipc: opcode 0x17; jalr: opcode 0x67, funct3 0. */
static const struct mcount_call_form riscv64_forms[] = {
	{ "call _mcount", R_RISCV_CALL_PLT, 0, 4, 2, { 0x17, 0x67 }, { 0x7f, 0x707f },
	  { 0x00000013, 0x00000013 }, R_RISCV_RELAX, 0 },
	{ "call _mcount", R_RISCV_CALL, 0, 4, 2, { 0x17, 0x67 }, { 0x7f, 0x707f },
	  { 0x00000013, 0x00000013 }, R_RISCV_RELAX, 0 },
};

static const uint32_t riscv64_relax[] = { R_RISCV_RELAX, R_RISCV_ALIGN };

static const struct recordmcount_desc riscv64_rmc = {
	.forms = riscv64_forms,
	.nr_forms = sizeof(riscv64_forms) / sizeof(riscv64_forms[0]),
	.word_size = 8,
	.rela = 1,
	.rel_word = R_RISCV_64,
	.rel_none = R_RISCV_NONE,
	.relax_types = riscv64_relax,
	.nr_relax_types = sizeof(riscv64_relax) / sizeof(riscv64_relax[0]),
};

static int riscv64_find_site(const struct elf_file *f, const struct mcount_targets *t,
			     uint64_t func, uint64_t size, struct site *out)
{
	return 0;
}

static int riscv64_check_site(const struct elf_file *f, uint64_t addr, uint64_t func,
			      struct site *out)
{
	return 0;
}

/* riscv has no GLOB_DAT: a GOT slot bound to a symbol holds R_RISCV_64. */
const struct arch_desc arch_riscv64 = {
	.name = "riscv64",
	.machine = EM_RISCV,
	.rel_relative = R_RISCV_RELATIVE,
	.rel_abs = R_RISCV_64,
	.rel_glob_dat = R_RISCV_64,
	.rel_jump_slot = R_RISCV_JUMP_SLOT,
	.find_site = riscv64_find_site,
	.check_site = riscv64_check_site,
	.rmc = &riscv64_rmc,
};
