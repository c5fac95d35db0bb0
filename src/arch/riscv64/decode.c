// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64: the call sites of a relocatable object (recordmcount) and of a
 * linked image (find_site, check_site).
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

/*
 * In a linked image, gcc's call has been through ld, usually relaxed:
 *
 *   object (8 bytes)                     image, relaxed (4 bytes)
 *   auipc ra, 0     <CALL_PLT _mcount>   jal ra, _mcount@plt   <JAL _mcount>
 *   jalr  ra                             (the next instruction moved up)
 *
 * A call ld could not relax (too far), and clang's, which carries no
 * R_RISCV_RELAX, stay auipc+jalr.
 */
static const struct mcount_call_form riscv64_image_forms[] = {
	{ "jal _mcount", R_RISCV_JAL, 0, 4, 1, { 0xef }, { 0xfff }, { 0x00000013 }, 0, 0 },
};

static const uint32_t riscv64_relax[] = { R_RISCV_RELAX, R_RISCV_ALIGN };

static const struct recordmcount_desc riscv64_rmc = {
	.forms = riscv64_forms,
	.nr_forms = sizeof(riscv64_forms) / sizeof(riscv64_forms[0]),
	.word_size = 8,
	.rela = 1,
	.rel_word = R_RISCV_64,
	.rel_pc32 = R_RISCV_32_PCREL,
	.rel_none = R_RISCV_NONE,
	.relax_types = riscv64_relax,
	.nr_relax_types = sizeof(riscv64_relax) / sizeof(riscv64_relax[0]),
	.image_forms = riscv64_image_forms,
	.nr_image_forms = sizeof(riscv64_image_forms) / sizeof(riscv64_image_forms[0]),
};

/* How far into a function the -pg call may be: after the stack
 * adjustment and up to thirteen register saves. */
#define MAX_HEAD 96

#define NOP		0x00000013
#define C_NOP		0x0001
#define REG_RA		1
#define REG_T1		6
#define REG_T3		28

static unsigned opcode(uint32_t insn) { return insn & 0x7f; }
static unsigned rd(uint32_t insn) { return (insn >> 7) & 0x1f; }
static unsigned rs1(uint32_t insn) { return (insn >> 15) & 0x1f; }
static unsigned funct3(uint32_t insn) { return (insn >> 12) & 7; }
static int64_t imm_i(uint32_t insn) { return (int32_t)insn >> 20; }
static int64_t imm_u(uint32_t insn) { return (int32_t)(insn & 0xfffff000); }

static int64_t imm_j(uint32_t insn)
{
	uint32_t v = (insn >> 31) << 20 | ((insn >> 12) & 0xff) << 12 |
		     ((insn >> 20) & 1) << 11 | ((insn >> 21) & 0x3ff) << 1;

	return (int32_t)(v << 11) >> 11;
}

static int is_jal_ra(uint32_t insn)
{
	return opcode(insn) == 0x6f && rd(insn) == REG_RA;
}

static int is_auipc(uint32_t insn, unsigned reg)
{
	return opcode(insn) == 0x17 && rd(insn) == reg;
}

/* jalr rd, imm(rs1) */
static int is_jalr(uint32_t insn, unsigned dst, unsigned src)
{
	return opcode(insn) == 0x67 && funct3(insn) == 0 && rd(insn) == dst &&
	       rs1(insn) == src;
}

/* A 4-byte instruction at addr, or 0 (a compressed one, or outside the image). */
static uint32_t insn_at(const struct elf_file *f, uint64_t addr)
{
	const uint8_t *p = elf_vaddr_ptr(f, addr, 4);

	if (!p || (p[0] & 3) != 3)
		return 0;
	return elf_u32(f, p);
}

/*
 * The GOT slot a PLT stub jumps through:
 *   auipc t3, %pcrel_hi(slot); ld t3, %pcrel_lo(slot)(t3); jalr t1, t3; nop
 */
static int riscv64_plt_slot(const struct elf_file *f, uint64_t stub, uint64_t *slot)
{
	uint32_t hi = insn_at(f, stub), lo = insn_at(f, stub + 4);

	if (!is_auipc(hi, REG_T3) || opcode(lo) != 0x03 || funct3(lo) != 3 ||
	    rd(lo) != REG_T3 || rs1(lo) != REG_T3 ||
	    !is_jalr(insn_at(f, stub + 8), REG_T1, REG_T3))
		return 0;
	*slot = stub + imm_u(hi) + imm_i(lo);
	return 1;
}

/* The length of a call at addr (jal ra, or auipc ra + jalr ra), its target in *to. */
static unsigned call_at(const struct elf_file *f, uint64_t addr, uint64_t *to)
{
	uint32_t insn = insn_at(f, addr), next;

	if (is_jal_ra(insn)) {
		*to = addr + imm_j(insn);
		return 4;
	}
	if (!is_auipc(insn, REG_RA))
		return 0;
	next = insn_at(f, addr + 4);
	if (!is_jalr(next, REG_RA, REG_RA))
		return 0;
	*to = addr + imm_u(insn) + imm_i(next);
	return 8;
}

static struct site head_site(uint64_t addr, uint64_t func, unsigned len)
{
	/* The -pg call follows the prologue; only a patchable entry is first. */
	return (struct site){ .addr = addr, .func = func, .len = len,
			      .kind = addr == func ? SITE_ENTRY : SITE_FRAME };
}

/* Walk the head instruction by instruction: compressed ones are 2 bytes. */
static int riscv64_find_site(const struct elf_file *f, const struct mcount_targets *t,
			     uint64_t func, uint64_t size, struct site *out)
{
	uint64_t end = func + (size < MAX_HEAD ? size : MAX_HEAD), to;
	const uint8_t *p;

	for (uint64_t addr = func; addr + 4 <= end; ) {
		unsigned n;

		if (!(p = elf_vaddr_ptr(f, addr, 2)))
			return 0;
		if ((p[0] & 3) != 3) {
			addr += 2;
			continue;
		}
		n = call_at(f, addr, &to);
		if (n && mcount_is_call(f, t, to)) {
			*out = head_site(addr, func, n);
			return 1;
		}
		addr += 4;
	}
	return 0;
}

/*
 * -fpatchable-function-entry=4 with compressed code: four c.nop, four
 * instructions the runtime makes two ("j +8; nop") at load, which it may
 * only do while no other thread runs (one may be between two c.nop).
 */
static int patchable_cnops(const struct elf_file *f, uint64_t addr, uint64_t func,
			   struct site *out)
{
	const uint8_t *p = elf_vaddr_ptr(f, addr, 8);

	if (addr != func || !p)
		return 0;
	for (unsigned i = 0; i < 8; i += 2)
		if (elf_u16(f, p + i) != C_NOP)
			return 0;
	*out = head_site(addr, func, 8);
	out->flags = SITE_QUIET_ONLY;
	return 1;
}

/*
 * A site a table names: a call (jal ra: 4 bytes; auipc ra + jalr ra: 8),
 * or what recordmcount --nop made of one: two nops for an auipc+jalr it
 * kept from relaxation, one for a relaxed jal; or a patchable entry: two
 * nops (-march=rv64g, =2), four c.nop (rv64gc, =4).
 */
static int riscv64_check_site(const struct elf_file *f, uint64_t addr, uint64_t func,
			      struct site *out)
{
	uint32_t insn = insn_at(f, addr);
	uint64_t to;
	unsigned n;

	if (addr < func)
		return 0;
	if (!insn)
		return patchable_cnops(f, addr, func, out);
	if (insn == NOP)
		n = insn_at(f, addr + 4) == NOP ? 8 : 4;
	else
		n = call_at(f, addr, &to);
	if (!n)
		return 0;
	*out = head_site(addr, func, n);
	return 1;
}

/* riscv has no GLOB_DAT: a GOT slot bound to a symbol holds R_RISCV_64. */
const struct arch_desc arch_riscv64 = {
	.name = "riscv64",
	.machine = EM_RISCV,
	.triple = "riscv64-linux-gnu",
	.rel_relative = R_RISCV_RELATIVE,
	.rel_abs = R_RISCV_64,
	.rel_glob_dat = R_RISCV_64,
	.rel_jump_slot = R_RISCV_JUMP_SLOT,
	.find_site = riscv64_find_site,
	.check_site = riscv64_check_site,
	.plt_slot = riscv64_plt_slot,
	.rmc = &riscv64_rmc,
	.int_arg_regs = 8,
	.fp_arg_regs = 8,
	/* A per-object table is right after relaxation only if no relaxable
	 * code precedes a site in its section, and the prologue before
	 * gcc's call holds none. */
	.cc_pg_extra = "-ffunction-sections",
	/* Four c.nop, or four nops (the first two the site). */
	.cc_patchable = "-fpatchable-function-entry=4",
};
