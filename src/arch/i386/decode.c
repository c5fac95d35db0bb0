// SPDX-License-Identifier: GPL-2.0
/*
 * i386: the call sites of a relocatable object, for recordmcount.  The
 * image-decoding hooks (find_site, check_site) are not written yet: they
 * find nothing, so a linked i386 image is only traced through a table.
 *
 * In an object (r = the relocation's offset):
 *
 *   before                                  after --nop
 *   r-1: e8 <PC32 mcount -4>                3e 8d 74 26 00     ds lea 0x0(%esi,%eiz,1),%esi
 *        call mcount             (-fno-pie)
 *   r-2: ff 93 <GOT32X mcount>              8d b6 00 00 00 00  lea 0x0(%esi),%esi
 *        call *mcount@GOT(%ebx)  (PIE, -fpic)
 *
 * Both nops are single instructions that change no register but %esi,
 * which they load with itself (the kernel's choice for 32-bit x86).
 */
#include "../arch.h"

#include <elf.h>

static const struct mcount_call_form i386_forms[] = {
	{ "call mcount", R_386_PC32, -1, 1, 5, { 0xe8 }, { 0xff },
	  { 0x3e, 0x8d, 0x74, 0x26, 0x00 }, 0, 0 },
	{ "call mcount@PLT", R_386_PLT32, -1, 1, 5, { 0xe8 }, { 0xff },
	  { 0x3e, 0x8d, 0x74, 0x26, 0x00 }, 0, 0 },
	{ "call *mcount@GOT(%ebx)", R_386_GOT32X, -2, 1, 6, { 0xff, 0x93 }, { 0xff, 0xff },
	  { 0x8d, 0xb6, 0x00, 0x00, 0x00, 0x00 }, 0, 0 },
	{ "call *mcount@GOT(%ebx)", R_386_GOT32, -2, 1, 6, { 0xff, 0x93 }, { 0xff, 0xff },
	  { 0x8d, 0xb6, 0x00, 0x00, 0x00, 0x00 }, 0, 0 },
};

static const struct recordmcount_desc i386_rmc = {
	.forms = i386_forms,
	.nr_forms = sizeof(i386_forms) / sizeof(i386_forms[0]),
	.word_size = 4,
	.rela = 0,
	.rel_word = R_386_32,
	.rel_none = R_386_NONE,
};

static int i386_find_site(const struct elf_file *f, const struct mcount_targets *t,
			  uint64_t func, uint64_t size, struct site *out)
{
	return 0;
}

static int i386_check_site(const struct elf_file *f, uint64_t addr, uint64_t func,
			   struct site *out)
{
	return 0;
}

const struct arch_desc arch_i386 = {
	.name = "i386",
	.machine = EM_386,
	.rel_relative = R_386_RELATIVE,
	.rel_abs = R_386_32,
	.rel_glob_dat = R_386_GLOB_DAT,
	.rel_jump_slot = R_386_JMP_SLOT,
	.find_site = i386_find_site,
	.check_site = i386_check_site,
	.rmc = &i386_rmc,
};
