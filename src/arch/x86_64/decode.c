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
#include "../x86/x86.h"
#include "../../sites/xray_map.h"

#include <elf.h>
#include <string.h>

static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
static const uint8_t frame_setup[] = { 0x55, 0x48, 0x89, 0xe5 };
static const uint8_t nop5_head[] = { 0x0f, 0x1f, 0x44, 0x00 };
static const uint8_t nop6[] = { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 };
static const uint8_t nop1x5[] = { 0x90, 0x90, 0x90, 0x90, 0x90 };

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
	*slot = stub + off + 6 + x86_rel32(p + off + 2);
	return 1;
}

/* Length of the mcount call at addr, whose bytes are p[0..avail), or 0. */
static unsigned mcount_call_at(const struct elf_file *f, const struct mcount_targets *t,
			       uint64_t addr, const uint8_t *p, uint64_t avail)
{
	if (avail >= 5 && p[0] == 0xe8 && mcount_is_call(f, t, addr + 5 + x86_rel32(p + 1)))
		return 5;
	if (avail < 6)
		return 0;
	if (p[0] == 0xff && p[1] == 0x15 && mcount_is_slot(t, addr + 6 + x86_rel32(p + 2)))
		return 6;
	if (p[0] == 0x67 && p[1] == 0xe8 && mcount_is_call(f, t, addr + 6 + x86_rel32(p + 2)))
		return 6;
	return 0;
}

/* The length of the instruction a table names, or 0 if it is none. */
static unsigned table_site_len(const uint8_t *p, uint8_t *flags)
{
	*flags = 0;
	if (p[0] == 0xe8 || !memcmp(p, nop5_head, sizeof(nop5_head)))
		return 5;
	if ((p[0] == 0xff && p[1] == 0x15) || (p[0] == 0x67 && p[1] == 0xe8) ||
	    !memcmp(p, nop6, sizeof(nop6)))
		return 6;
	if (!memcmp(p, nop1x5, sizeof(nop1x5))) {
		*flags = SITE_QUIET_ONLY;
		return 5;
	}
	return 0;
}

static const struct x86_flavor x86_64_flavor = {
	.endbr = endbr64,
	.frame_setup = frame_setup,
	.frame_setup_len = sizeof(frame_setup),
	.call_at = mcount_call_at,
	.table_site_len = table_site_len,
};

static int x86_64_find_site(const struct elf_file *f, const struct mcount_targets *t,
			    uint64_t func, uint64_t size, struct site *out)
{
	return x86_find_site(&x86_64_flavor, f, t, func, size, out);
}

static int x86_64_check_site(const struct elf_file *f, uint64_t addr,
			     uint64_t func, struct site *out)
{
	return x86_check_site(&x86_64_flavor, f, addr, func, out);
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

/*
 * clang's XRay sleds (-fxray-instrument -fxray-instrumentation-bundle=
 * function-exit), made the return sites gcc's -minstrument-return=nop5
 * leaves, which the runtime patches (src/core/returns.c):
 *
 *   exit  c3 <nops: 10 bytes>           ret
 *    ->   0f 1f 44 00 00 c3 0f 1f 44 00 00          nopl; ret; nopl
 *   tail  eb 09 <nops: 9 bytes> e9 ...  jmp over the nops; jmp f
 *    ->   0f 1f 44 00 00 66 0f 1f 44 00 00 e9 ...   nopl; nopw; jmp f
 *
 * The return moves on by a nop: nothing after it in the sled ever ran,
 * and no branch lands inside a sled.
 */
#define XRAY_SLED_LEN 11

static const uint8_t xray_exit_site[XRAY_SLED_LEN] = {
	0x0f, 0x1f, 0x44, 0x00, 0x00, 0xc3, 0x0f, 0x1f, 0x44, 0x00, 0x00 };
static const uint8_t xray_tail_site[XRAY_SLED_LEN] = {
	0x0f, 0x1f, 0x44, 0x00, 0x00, 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* The length of the nop at p: 90 or 0f 1f /0 (its memory operand by
 * ModRM, SIB and displacement, no RIP-relative one), after 66 and 2e
 * prefixes; 0 if p holds no nop within room bytes. */
static unsigned nop_len(const uint8_t *p, unsigned room)
{
	unsigned n = 0, mod, rm;

	while (n < room && (p[n] == 0x66 || p[n] == 0x2e))
		n++;
	if (n < room && p[n] == 0x90)
		return n + 1;
	if (n + 3 > room || p[n] != 0x0f || p[n + 1] != 0x1f || (p[n + 2] & 0x38))
		return 0;
	mod = p[n + 2] >> 6;
	rm = p[n + 2] & 7;
	n += 3;
	if (mod == 0 && rm == 5)
		return 0;
	if (mod != 3 && rm == 4 && (n >= room || (mod == 0 && (p[n] & 7) == 5)))
		return 0;
	n += (mod != 3 && rm == 4) + (mod == 1) + 4 * (mod == 2);
	return n <= room ? n : 0;
}

static int nops_only(const uint8_t *p, unsigned len)
{
	unsigned n;

	for (; len; p += n, len -= n)
		if (!(n = nop_len(p, len)))
			return 0;
	return 1;
}

static int x86_64_xray_return_site(unsigned kind, uint8_t *p, uint64_t room)
{
	if (room < XRAY_SLED_LEN)
		return 0;
	if (kind == XRAY_SLED_EXIT && p[0] == 0xc3 && nops_only(p + 1, XRAY_SLED_LEN - 1))
		memcpy(p, xray_exit_site, XRAY_SLED_LEN);
	else if (kind == XRAY_SLED_TAIL && p[0] == 0xeb && p[1] == XRAY_SLED_LEN - 2 &&
		 nops_only(p + 2, XRAY_SLED_LEN - 2))
		memcpy(p, xray_tail_site, XRAY_SLED_LEN);
	else
		return 0;
	return 1;
}

static const struct recordmcount_desc x86_64_rmc = {
	.forms = x86_64_forms,
	.nr_forms = sizeof(x86_64_forms) / sizeof(x86_64_forms[0]),
	.word_size = 8,
	.rela = 1,
	.rel_word = R_X86_64_64,
	.rel_pc32 = R_X86_64_PC32,
	.rel_none = R_X86_64_NONE,
	.image_forms = x86_64_image_forms,
	.nr_image_forms = sizeof(x86_64_image_forms) / sizeof(x86_64_image_forms[0]),
	.xray_return_site = x86_64_xray_return_site,
};

const struct arch_desc arch_x86_64 = {
	.name = "x86_64",
	.machine = EM_X86_64,
	.triple = "x86_64-linux-gnu",
	.rel_relative = R_X86_64_RELATIVE,
	.rel_abs = R_X86_64_64,
	.rel_glob_dat = R_X86_64_GLOB_DAT,
	.rel_jump_slot = R_X86_64_JUMP_SLOT,
	.find_site = x86_64_find_site,
	.check_site = x86_64_check_site,
	.plt_slot = x86_64_plt_slot,
	.rmc = &x86_64_rmc,
	.int_arg_regs = 6,
	.fp_arg_regs = 8,
	.int_ret_regs = 2,	/* %rax, %rdx */
	.fp_ret_regs = 2,	/* %xmm0, %xmm1 */
	.sret_in_arg = 1,	/* %rdi */
	.place_aggregate = x86_64_place_aggregate,
	.cc_pg_extra = "-mfentry",
	/* One 5-byte nop (clang) or five (gcc). */
	.cc_patchable = "-fpatchable-function-entry=5",
	.cc_fentry = 1,
	.cc_return_sites = CC_RETURNS_WITH_PG,
	.libcalls = 1,
};
