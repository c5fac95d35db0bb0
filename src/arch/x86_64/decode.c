// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: recognise the call sites gcc, clang and ld leave in an image.
 *
 *   e8 rel32               call mcount / __fentry__          (-fno-pie, clang)
 *   ff 15 disp32           call *mcount@GOTPCREL(%rip)       (gcc, PIE)
 *   67 e8 rel32            addr32 call mcount                (ld relaxed ff 15)
 *   0f 1f 44 00 xx         5-byte nop   (-mnop-mcount, clang patchable entry)
 *   66 0f 1f 44 00 00      6-byte nop   (a 6-byte site fntrace already nopped)
 *   90 90 90 90 90         gcc -fpatchable-function-entry=5: five instructions
 *
 * each possibly after an endbr64 (f3 0f 1e fa).  gcc's -pg call follows
 * "push %rbp; mov %rsp,%rbp"; clang's may come later, after saving
 * callee-saved registers, so the function head is searched.
 */
#include "../arch.h"

#include <elf.h>
#include <string.h>

/* How far into a function the -pg call may be: clang saves registers first. */
#define MAX_HEAD 64

static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
static const uint8_t frame_setup[] = { 0x55, 0x48, 0x89, 0xe5 };
static const uint8_t nop5_head[] = { 0x0f, 0x1f, 0x44, 0x00 };
static const uint8_t nop6[] = { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 };
static const uint8_t nop1x5[] = { 0x90, 0x90, 0x90, 0x90, 0x90 };

static int32_t rel32(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
			 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static uint64_t skip_endbr(const struct elf_file *f, uint64_t func)
{
	const uint8_t *p = elf_vaddr_ptr(f, func, sizeof(endbr64));

	return p && !memcmp(p, endbr64, sizeof(endbr64)) ? func + 4 : func;
}

/* A site is at the entry, or after a frame-pointer prologue; anything
 * else gives no reliable way to find the parent's return address. */
static int site_kind(const struct elf_file *f, uint64_t func, uint64_t addr)
{
	uint64_t body = skip_endbr(f, func);
	const uint8_t *p;

	if (addr == func || addr == body)
		return SITE_ENTRY;
	p = elf_vaddr_ptr(f, body, sizeof(frame_setup));
	if (p && !memcmp(p, frame_setup, sizeof(frame_setup)) &&
	    addr >= body + sizeof(frame_setup))
		return SITE_FRAME;
	return -1;
}

/*
 * The PLT stub a direct call lands on, reduced to the GOT slot it jumps
 * through:
 *   .plt / .plt.got:   ff 25 disp32              jmp *slot(%rip)
 *   .plt.sec (IBT):    f3 0f 1e fa f2 ff 25 d32   endbr64; bnd jmp *slot(%rip)
 */
static int x86_64_plt_slot(const struct elf_file *f, uint64_t stub, uint64_t *slot)
{
	const uint8_t *p = elf_vaddr_ptr(f, stub, 11);
	unsigned off = 0;

	if (!p)
		return 0;
	if (!memcmp(p, endbr64, sizeof(endbr64)))
		off = 4;
	if (p[off] == 0xf2)
		off++;
	if (p[off] != 0xff || p[off + 1] != 0x25)
		return 0;
	*slot = stub + off + 6 + rel32(p + off + 2);
	return 1;
}

/* Length of the mcount call at addr, whose bytes are p[0..avail), or 0. */
static unsigned mcount_call_at(const struct elf_file *f, const struct mcount_targets *t,
			       uint64_t addr, const uint8_t *p, uint64_t avail)
{
	if (avail >= 5 && p[0] == 0xe8 && mcount_is_call(f, t, addr + 5 + rel32(p + 1)))
		return 5;
	if (avail < 6)
		return 0;
	if (p[0] == 0xff && p[1] == 0x15 && mcount_is_slot(t, addr + 6 + rel32(p + 2)))
		return 6;
	if (p[0] == 0x67 && p[1] == 0xe8 && mcount_is_call(f, t, addr + 6 + rel32(p + 2)))
		return 6;
	return 0;
}

static int x86_64_find_site(const struct elf_file *f,
			    const struct mcount_targets *t,
			    uint64_t func, uint64_t size, struct site *out)
{
	uint64_t len = size < MAX_HEAD ? size : MAX_HEAD;
	const uint8_t *code = elf_vaddr_ptr(f, func, len);

	for (uint64_t off = 0; code && off + 5 <= len; off++) {
		unsigned n;
		int kind;

		/* Most bytes start no call: test that before decoding. */
		if (code[off] != 0xe8 && code[off] != 0xff && code[off] != 0x67)
			continue;
		n = mcount_call_at(f, t, func + off, code + off, len - off);
		if (!n)
			continue;
		kind = site_kind(f, func, func + off);
		if (kind < 0)
			return 0;
		*out = (struct site){ .addr = func + off, .func = func, .len = n,
				      .kind = kind };
		return 1;
	}
	return 0;
}

/* The length of the instruction a table names, and whether it is one. */
static int table_site_len(const uint8_t *p, uint8_t *len, uint8_t *flags)
{
	*flags = 0;
	if (p[0] == 0xe8 || !memcmp(p, nop5_head, sizeof(nop5_head)))
		*len = 5;
	else if ((p[0] == 0xff && p[1] == 0x15) || (p[0] == 0x67 && p[1] == 0xe8) ||
		 !memcmp(p, nop6, sizeof(nop6)))
		*len = 6;
	else if (!memcmp(p, nop1x5, sizeof(nop1x5))) {
		*len = 5;
		*flags = SITE_QUIET_ONLY;
	} else
		return 0;
	return 1;
}

static int x86_64_check_site(const struct elf_file *f, uint64_t addr,
			     uint64_t func, struct site *out)
{
	const uint8_t *p;
	int kind;

	addr = skip_endbr(f, addr);
	p = elf_vaddr_ptr(f, addr, 6);
	if (!p || !table_site_len(p, &out->len, &out->flags))
		return 0;
	kind = site_kind(f, func, addr);
	if (kind < 0)
		return 0;
	out->addr = addr;
	out->func = func;
	out->kind = kind;
	return 1;
}

/*
 * recordmcount, in a relocatable object (r = the relocation's offset):
 *
 *   before                              after --nop
 *   r-1: e8 <PLT32 mcount-4>            0f 1f 44 00 00       nopl 0x0(%rax,%rax,1)
 *   r-2: ff 15 <GOTPCRELX mcount-4>     66 0f 1f 44 00 00    nopw 0x0(%rax,%rax,1)
 *
 * Each nop is one instruction, so the runtime may later turn it back
 * into a call while other threads run.
 */
static const struct mcount_call_form x86_64_forms[] = {
	{ "call mcount", R_X86_64_PLT32, -1, 1, 5, { 0xe8 }, { 0xff },
	  { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 0, 0 },
	{ "call mcount", R_X86_64_PC32, -1, 1, 5, { 0xe8 }, { 0xff },
	  { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 0, 0 },
	{ "call *mcount@GOTPCREL(%rip)", R_X86_64_GOTPCRELX, -2, 1, 6,
	  { 0xff, 0x15 }, { 0xff, 0xff }, { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 0, 0 },
	{ "call *mcount@GOTPCREL(%rip)", R_X86_64_GOTPCREL, -2, 1, 6,
	  { 0xff, 0x15 }, { 0xff, 0xff }, { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 0, 0 },
};

/*
 * In a final image, ld has turned a GOT call to a function the image
 * defines into a direct one, keeping its 6 bytes ("67 e8", addr32 call),
 * and with --emit-relocs says so with R_X86_64_PC32 at r = site + 2.
 */
static const struct mcount_call_form x86_64_image_forms[] = {
	{ "addr32 call mcount", R_X86_64_PC32, -2, 1, 6, { 0x67, 0xe8 }, { 0xff, 0xff },
	  { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 0, 0 },
	{ "addr32 call mcount", R_X86_64_PLT32, -2, 1, 6, { 0x67, 0xe8 }, { 0xff, 0xff },
	  { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 0, 0 },
	{ "addr32 call mcount", R_X86_64_GOTPCRELX, -2, 1, 6, { 0x67, 0xe8 }, { 0xff, 0xff },
	  { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 0, 0 },
};

static const struct recordmcount_desc x86_64_rmc = {
	.forms = x86_64_forms,
	.nr_forms = sizeof(x86_64_forms) / sizeof(x86_64_forms[0]),
	.word_size = 8,
	.rela = 1,
	.rel_word = R_X86_64_64,
	.rel_none = R_X86_64_NONE,
	.image_forms = x86_64_image_forms,
	.nr_image_forms = sizeof(x86_64_image_forms) / sizeof(x86_64_image_forms[0]),
};

const struct arch_desc arch_x86_64 = {
	.name = "x86_64",
	.machine = EM_X86_64,
	.rel_relative = R_X86_64_RELATIVE,
	.rel_abs = R_X86_64_64,
	.rel_glob_dat = R_X86_64_GLOB_DAT,
	.rel_jump_slot = R_X86_64_JUMP_SLOT,
	.find_site = x86_64_find_site,
	.check_site = x86_64_check_site,
	.plt_slot = x86_64_plt_slot,
	.rmc = &x86_64_rmc,
};
