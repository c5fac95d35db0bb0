// SPDX-License-Identifier: GPL-2.0
/*
 * i386: the call sites of a relocatable object (recordmcount) and of a
 * linked image (find_site, check_site).
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
#include "../x86/x86.h"

#include <elf.h>
#include <string.h>

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

/* ld turns a GOT call to a function the image defines into a direct
 * call, prefixed to keep its 6 bytes: "67 e8 rel32" (addr32 call). */
static const struct mcount_call_form i386_image_forms[] = {
	{ "addr32 call mcount", R_386_PC32, -2, 1, 6, { 0x67, 0xe8 }, { 0xff, 0xff },
	  { 0x8d, 0xb6, 0x00, 0x00, 0x00, 0x00 }, 0, 0 },
	{ "addr32 call mcount", R_386_GOT32X, -2, 1, 6, { 0x67, 0xe8 }, { 0xff, 0xff },
	  { 0x8d, 0xb6, 0x00, 0x00, 0x00, 0x00 }, 0, 0 },
};

static const struct recordmcount_desc i386_rmc = {
	.forms = i386_forms,
	.nr_forms = sizeof(i386_forms) / sizeof(i386_forms[0]),
	.word_size = 4,
	.rela = 0,
	.rel_word = R_386_32,
	.rel_pc32 = R_386_PC32,
	.rel_none = R_386_NONE,
	.image_forms = i386_image_forms,
	.nr_image_forms = sizeof(i386_image_forms) / sizeof(i386_image_forms[0]),
};

/*
 * In a linked image (each possibly after endbr32, f3 0f 1e fb):
 *
 *   e8 rel32              call mcount@plt             (-fno-pie)
 *   ff 93 disp32          call *mcount@GOT(%ebx)      (PIE, after the
 *                         __x86.get_pc_thunk.bx call that loads %ebx)
 *   67 e8 rel32           addr32 call mcount          (ld relaxed ff 93)
 *   3e 8d 74 26 00, 8d b6 00 00 00 00, 0f 1f 44 00 00   nopped sites
 *   90 90 90 90 90        gcc -fpatchable-function-entry=5
 *   66 90 66 90 90        clang -fpatchable-function-entry=5
 *
 * The last two are several instructions: a thread may stop between
 * them, so they are made one nop only while the process is
 * single-threaded (SITE_QUIET_ONLY).
 *
 * gcc's -pg call follows "push %ebp; mov %esp,%ebp" and the saves and
 * the GOT pointer set-up after it, so the head is searched.
 */

static const uint8_t endbr32[] = { 0xf3, 0x0f, 0x1e, 0xfb };
static const uint8_t frame_setup[] = { 0x55, 0x89, 0xe5 };
static const uint8_t nop5[] = { 0x3e, 0x8d, 0x74, 0x26, 0x00 };
static const uint8_t nop5_long[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
static const uint8_t nop6[] = { 0x8d, 0xb6, 0x00, 0x00, 0x00, 0x00 };
static const uint8_t nop1x5[] = { 0x90, 0x90, 0x90, 0x90, 0x90 };
static const uint8_t nop2x2_1[] = { 0x66, 0x90, 0x66, 0x90, 0x90 };

/*
 * main() realigns the stack before its frame, copying the return address
 * below it: its site is SITE_FRAME_REALIGNED, since 4(%ebp) is only the
 * copy and main returns through the original, at -4(%ecx):
 *   8d 4c 24 04   lea 0x4(%esp),%ecx
 *   83 e4 f0      and $-16,%esp
 *   ff 71 fc      push -0x4(%ecx)
 */
static const uint8_t realign[] = { 0x8d, 0x4c, 0x24, 0x04, 0x83, 0xe4, 0xf0,
				   0xff, 0x71, 0xfc };

/* %ebx in PIC code: the GOT, which the dynamic section names. */
static uint64_t got_base(const struct elf_file *f)
{
	return elf_dynamic(f, DT_PLTGOT);
}

/* Length of the mcount call at addr, whose bytes are p[0..avail), or 0. */
static unsigned mcount_call_at(const struct elf_file *f, const struct mcount_targets *t,
			       uint64_t addr, const uint8_t *p, uint64_t avail)
{
	if (avail >= 5 && p[0] == 0xe8 &&
	    mcount_is_call(f, t, (uint32_t)(addr + 5 + x86_rel32(p + 1))))
		return 5;
	if (avail < 6)
		return 0;
	if (p[0] == 0xff && p[1] == 0x93 &&
	    mcount_is_slot(t, (uint32_t)(got_base(f) + x86_rel32(p + 2))))
		return 6;
	if (p[0] == 0x67 && p[1] == 0xe8 &&
	    mcount_is_call(f, t, (uint32_t)(addr + 6 + x86_rel32(p + 2))))
		return 6;
	return 0;
}

static unsigned table_site_len(const uint8_t *p, uint8_t *flags)
{
	*flags = 0;
	if (p[0] == 0xe8 || !memcmp(p, nop5, sizeof(nop5)) ||
	    !memcmp(p, nop5_long, sizeof(nop5_long)))
		return 5;
	if ((p[0] == 0xff && p[1] == 0x93) || (p[0] == 0x67 && p[1] == 0xe8) ||
	    !memcmp(p, nop6, sizeof(nop6)))
		return 6;
	if (!memcmp(p, nop1x5, sizeof(nop1x5)) || !memcmp(p, nop2x2_1, sizeof(nop2x2_1))) {
		*flags = SITE_QUIET_ONLY;
		return 5;
	}
	return 0;
}

static const struct x86_flavor i386_flavor = {
	.endbr = endbr32,
	.frame_setup = frame_setup,
	.frame_setup_len = sizeof(frame_setup),
	.realign = realign,
	.realign_len = sizeof(realign),
	.call_at = mcount_call_at,
	.table_site_len = table_site_len,
};

/*
 * The GOT slot a PLT stub jumps through:
 *   ff 25 abs32     jmp *slot            (non-PIC PLT)
 *   ff a3 disp32    jmp *disp(%ebx)      (PIC PLT)
 */
static int i386_plt_slot(const struct elf_file *f, uint64_t stub, uint64_t *slot)
{
	const uint8_t *p;

	stub = x86_skip_endbr(&i386_flavor, f, stub);
	p = elf_vaddr_ptr(f, stub, 6);
	if (!p || p[0] != 0xff)
		return 0;
	if (p[1] == 0x25)
		*slot = (uint32_t)x86_rel32(p + 2);
	else if (p[1] == 0xa3)
		*slot = (uint32_t)(got_base(f) + x86_rel32(p + 2));
	else
		return 0;
	return 1;
}

static int i386_find_site(const struct elf_file *f, const struct mcount_targets *t,
			  uint64_t func, uint64_t size, struct site *out)
{
	return x86_find_site(&i386_flavor, f, t, func, size, out);
}

static int i386_check_site(const struct elf_file *f, uint64_t addr, uint64_t func,
			   struct site *out)
{
	return x86_check_site(&i386_flavor, f, addr, func, out);
}

const struct arch_desc arch_i386 = {
	.name = "i386",
	.machine = EM_386,
	.triple = "i686-linux-gnu",
	.rel_relative = R_386_RELATIVE,
	.rel_abs = R_386_32,
	.rel_glob_dat = R_386_GLOB_DAT,
	.rel_jump_slot = R_386_JMP_SLOT,
	.find_site = i386_find_site,
	.check_site = i386_check_site,
	.plt_slot = i386_plt_slot,
	.rmc = &i386_rmc,
	/* One 5-byte nop (clang) or five (gcc). */
	.cc_patchable = "-fpatchable-function-entry=5",
};
