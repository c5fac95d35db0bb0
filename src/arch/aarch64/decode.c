// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64: the call sites of a relocatable object, for recordmcount.  The
 * image-decoding hooks (find_site, check_site) are not written yet: they
 * find nothing, so a linked aarch64 image is only traced through a table.
 *
 * gcc -pg, after the prologue (clang has no "mov x0, x30"):
 *
 *   before                                  after --nop
 *        aa1e03e0   mov x0, x30                  aa1e03e0   mov x0, x30
 *   r:   94000000   bl _mcount  <CALL26>    r:   d503201f   nop
 *
 * The mov is left: x0 is dead after a call, which may clobber it anyway.
 * BL <-> NOP is one of the changes the architecture allows on code other
 * CPUs are running, so the runtime can turn the nop back into a call.
 */
#include "../arch.h"

#include <elf.h>

static const struct mcount_call_form aarch64_forms[] = {
	{ "bl _mcount", R_AARCH64_CALL26, 0, 4, 1, { 0x94000000 }, { 0xfc000000 },
	  { 0xd503201f }, 0, 0 },
};

static const struct recordmcount_desc aarch64_rmc = {
	.forms = aarch64_forms,
	.nr_forms = sizeof(aarch64_forms) / sizeof(aarch64_forms[0]),
	.word_size = 8,
	.rela = 1,
	.rel_word = R_AARCH64_ABS64,
	.rel_none = R_AARCH64_NONE,
};

static int aarch64_find_site(const struct elf_file *f, const struct mcount_targets *t,
			     uint64_t func, uint64_t size, struct site *out)
{
	return 0;
}

static int aarch64_check_site(const struct elf_file *f, uint64_t addr, uint64_t func,
			      struct site *out)
{
	return 0;
}

const struct arch_desc arch_aarch64 = {
	.name = "aarch64",
	.machine = EM_AARCH64,
	.rel_relative = R_AARCH64_RELATIVE,
	.rel_abs = R_AARCH64_ABS64,
	.rel_glob_dat = R_AARCH64_GLOB_DAT,
	.rel_jump_slot = R_AARCH64_JUMP_SLOT,
	.find_site = aarch64_find_site,
	.check_site = aarch64_check_site,
	.rmc = &aarch64_rmc,
};
