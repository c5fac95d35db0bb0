// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64: the call sites of a relocatable object (recordmcount) and of a
 * linked image (find_site, check_site).
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
#include "../../sites/xray_map.h"

#include <elf.h>

#define NOP		0xd503201f
#define BTI_C		0xd503245f
#define PACIASP		0xd503233f

static const struct mcount_call_form aarch64_forms[] = {
	{ "bl _mcount", R_AARCH64_CALL26, 0, 4, 1, { 0x94000000 }, { 0xfc000000 },
	  { 0xd503201f }, 0, 0 },
};

/*
 * clang's XRay exit and tail-call sleds (xray_instr_map), made return
 * sites (src/recordmcount/xray.c).  The site is the sled's last word, so
 * that its call returns to the ret or jump it guards; x30 is kept in x16,
 * which the bl overwrites, a word before:
 *
 *   XRay's:  14000008  b #+32            made:  14000006  b #+24
 *            d503201f  nop (x7)                 d503201f  nop (x5)
 *                                               aa1e03f0  mov x16, x30
 *                                               d503201f  nop      <-> bl ftrace_return_caller
 *            d65f03c0  ret (or b, br xN)        d65f03c0  ret (or b, br xN)
 *
 * Off, it costs what XRay's did, one taken branch, and two words more.
 * x16 is dead at a return and at a tail call's jump (a veneer may
 * clobber it on the way), unless that jump is "br x16", as every indirect
 * tail call is with BTI (-mbranch-protection=bti: only x16 and x17 may
 * reach a "bti c").  Then the target moves to x17 first, which
 * ftrace_tail_caller keeps, and the jump goes through it:
 *
 *            d503201f  nop (x7)                 14000005  b #+20
 *                                               d503201f  nop (x4)
 *                                               aa1003f1  mov x17, x16
 *                                               aa1e03f0  mov x16, x30
 *                                               d503201f  nop      <-> bl ftrace_tail_caller
 *            d61f0200  br x16                   d61f0220  br x17
 *
 * Nothing branches to the jump past its sled: XRay put the sled in the
 * jump's own block.
 */
#define SLED_WORDS	8
#define SLED_B		0x14000008u	/* b #+32, over the sled */
#define SITE_B		0x14000006u	/* b #+24, to the site's mov */
#define SITE_B_MOVED	0x14000005u	/* b #+20, to the target's move */
#define MOV_X16_X30	0xaa1e03f0u
#define MOV_X17_X16	0xaa1003f1u
#define RET		0xd65f03c0u
#define BR_MASK		0xfffffc1fu	/* br xN, N in bits 5-9 */
#define BR		0xd61f0000u
#define BR_X16		0xd61f0200u
#define BR_X17		0xd61f0220u

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t w)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(w >> 8 * i);
}

/* clang marks aarch64's tail-call sleds as exits: what follows tells. */
static int jumps_after(unsigned kind, uint32_t next)
{
	return (kind == XRAY_SLED_EXIT || kind == XRAY_SLED_TAIL) &&
	       (next == RET || (next & 0xfc000000u) == 0x14000000u || (next & BR_MASK) == BR);
}

static int aarch64_xray_return_site(unsigned kind, uint8_t *p, uint64_t room)
{
	uint8_t *jump = p + 4 * SLED_WORDS;

	if (room < 4 * (SLED_WORDS + 1) || le32(p) != SLED_B || !jumps_after(kind, le32(jump)))
		return 0;
	for (unsigned i = 1; i < SLED_WORDS; i++)
		if (le32(p + 4 * i) != NOP)
			return 0;
	put_le32(p, SITE_B);
	put_le32(p + 4 * (SLED_WORDS - 2), MOV_X16_X30);
	if (le32(jump) == BR_X16) {
		put_le32(p, SITE_B_MOVED);
		put_le32(p + 4 * (SLED_WORDS - 3), MOV_X17_X16);
		put_le32(jump, BR_X17);
	}
	return 1;
}

static const struct recordmcount_desc aarch64_rmc = {
	.forms = aarch64_forms,
	.nr_forms = sizeof(aarch64_forms) / sizeof(aarch64_forms[0]),
	.word_size = 8,
	.rela = 1,
	.rel_word = R_AARCH64_ABS64,
	.rel_pc32 = R_AARCH64_PREL32,
	.rel_none = R_AARCH64_NONE,
	.xray_return_site = aarch64_xray_return_site,
};

/* How far into a function the -pg call may be: after the frame record,
 * callee-saved pairs, and gcc's "mov x0, x30". */
#define MAX_HEAD 96

static uint32_t insn_at(const struct elf_file *f, uint64_t addr)
{
	const uint8_t *p = elf_vaddr_ptr(f, addr, 4);

	return p ? elf_u32(f, p) : 0;
}

static int is_bl(uint32_t insn)
{
	return (insn & 0xfc000000) == 0x94000000;
}

static uint64_t bl_target(uint64_t addr, uint32_t insn)
{
	return addr + (int64_t)((int32_t)(insn << 6) >> 4);
}

/* adrp x16, page: the page of pc plus a signed 21-bit page count. */
static int adrp_x16(uint64_t addr, uint32_t insn, uint64_t *page)
{
	uint32_t imm = ((insn >> 5) & 0x7ffff) << 2 | ((insn >> 29) & 3);

	if ((insn & 0x9f00001f) != 0x90000010)
		return 0;
	/* Sign-extend the 21 bits, then shift as unsigned: shifting a
	 * negative value left is undefined in C. */
	*page = (addr & ~0xfffull) + ((uint64_t)(int64_t)((int32_t)(imm << 11) >> 11) << 12);
	return 1;
}

/*
 * The GOT slot a PLT stub jumps through (a "bti c" first with BTI):
 *   adrp x16, slot; ldr x17, [x16, #:lo12:slot]; add x16, x16, ...; br x17
 */
static int aarch64_plt_slot(const struct elf_file *f, uint64_t stub, uint64_t *slot)
{
	uint64_t page;
	uint32_t ldr;

	if (insn_at(f, stub) == BTI_C)
		stub += 4;
	ldr = insn_at(f, stub + 4);
	if (!adrp_x16(stub, insn_at(f, stub), &page) || (ldr & 0xffc003ff) != 0xf9400211)
		return 0;
	*slot = page + ((ldr >> 10) & 0xfff) * 8;
	return 1;
}

/* An entry site is the first instruction, after a landing pad or pointer
 * authentication if any; the -pg call comes after the frame record. */
static struct site head_site(const struct elf_file *f, uint64_t addr, uint64_t func)
{
	uint32_t first = insn_at(f, func);
	int entry = addr == func || (addr == func + 4 && (first == BTI_C || first == PACIASP));

	return (struct site){ .addr = addr, .func = func, .len = 4,
			      .kind = entry ? SITE_ENTRY : SITE_FRAME };
}

static int aarch64_find_site(const struct elf_file *f, const struct mcount_targets *t,
			     uint64_t func, uint64_t size, struct site *out)
{
	uint64_t end = func + (size < MAX_HEAD ? size : MAX_HEAD);

	for (uint64_t addr = func; addr + 4 <= end; addr += 4) {
		uint32_t insn = insn_at(f, addr);

		if (is_bl(insn) && mcount_is_call(f, t, bl_target(addr, insn))) {
			*out = head_site(f, addr, func);
			return 1;
		}
	}
	return 0;
}

/*
 * A site a table names.  After the prologue (-pg: __mcount_loc, a side
 * file): "bl _mcount", or the nop recordmcount --nop made of it, one
 * word.  At the entry (__patchable_function_entries): the two nops of
 * -fpatchable-function-entry=2, one site of two words, because the
 * runtime's call there is "mov x9, x30; bl ftrace_caller" (see
 * ftrace.c).  A single nop followed by anything else is no such site.
 */
static int aarch64_check_site(const struct elf_file *f, uint64_t addr, uint64_t func,
			      struct site *out)
{
	uint32_t insn = insn_at(f, addr);

	if (addr < func || (addr & 3))
		return 0;
	*out = head_site(f, addr, func);
	if (out->kind == SITE_FRAME)
		return is_bl(insn) || insn == NOP;
	out->len = 8;
	return insn == NOP && insn_at(f, addr + 4) == NOP;
}

const struct arch_desc arch_aarch64 = {
	.name = "aarch64",
	.machine = EM_AARCH64,
	.triple = "aarch64-linux-gnu",
	.rel_relative = R_AARCH64_RELATIVE,
	.rel_abs = R_AARCH64_ABS64,
	.rel_glob_dat = R_AARCH64_GLOB_DAT,
	.rel_jump_slot = R_AARCH64_JUMP_SLOT,
	.find_site = aarch64_find_site,
	.check_site = aarch64_check_site,
	.plt_slot = aarch64_plt_slot,
	.rmc = &aarch64_rmc,
	.int_arg_regs = 8,
	.fp_arg_regs = 8,
	.cc_patchable = "-fpatchable-function-entry=2",	/* two nops */
	.cc_return_sites = CC_RETURNS_WITH_PATCHABLE,
	.libcalls = 1,
};
