// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 detours (arch.h, struct detour_arch): the entry becomes a 5-byte
 * jmp rel32 to a trampoline within 2 GB, after an endbr64 if there is one
 * (an indirect call must still land on it):
 *
 *	before				after
 *	f:   endbr64			f:   endbr64
 *	     push %rbp			     jmp  tramp		(5 bytes:
 *	     mov  %rsp,%rbp		     			 push, mov
 *	     push %rbx						 and push)
 *	     sub  $0x10,%rsp		f+9: sub  $0x10,%rsp
 *
 *	tramp: push %rbp; mov %rsp,%rbp; push %rbx; jmp f+9
 *
 * What moves is copied, but for what depends on its address: a relative
 * branch takes its rel32 form (a jcc or jmp rel8 reaches 127 bytes, no
 * further), loop and jrcxz, which have none, branch to a jmp rel32 of
 * their own, and a RIP-relative operand's disp32 is re-targeted (refused
 * if the new one does not fit).
 */
#include "../../detour/detour.h"
#include "../x86/x86.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <string.h>

#define JMP_REL32	0xe9
#define CALL_REL32	0xe8
#define JMP_REL8	0xeb

static int fits_rel32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

static void put_rel32(uint8_t *at, int32_t v)
{
	memcpy(at, &v, 4);
}

/* The RIP-relative memory operand, if insn has one. */
static const cs_x86_op *rip_operand(const cs_insn *insn)
{
	const cs_x86 *x = &insn->detail->x86;

	for (unsigned i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM && x->operands[i].mem.base == X86_REG_RIP)
			return &x->operands[i];
	return NULL;
}

static int in_group(const cs_insn *insn, unsigned group)
{
	const cs_detail *dt = insn->detail;

	for (unsigned i = 0; i < dt->groups_count; i++)
		if (dt->groups[i] == group)
			return 1;
	return 0;
}

static enum detour_kind relative_kind(const cs_insn *insn)
{
	if (in_group(insn, CS_GRP_CALL))
		return DETOUR_CALL;
	return insn->id == X86_INS_JMP ? DETOUR_JUMP : DETOUR_COND;
}

/*
 * Which indirect jumps may be a jump table's: gcc and clang dispatch
 * through one in two forms, "jmp *T(,%idx,8)" (absolute entries) and,
 * position-independent, "movslq (%base,%idx,4),%r; add %base,%r; jmp *%r"
 * (entries relative to the table).  A jump through memory with no index
 * reads one pointer (a GOT slot, a struct's member), and one through a
 * register is a table's only where the function also makes that load;
 * the table's address, a lea's, is then DETOUR_TABLE_BASE.
 */
static enum detour_kind indirect_kind(const cs_insn *insn)
{
	const cs_x86_op *op = &insn->detail->x86.operands[0];

	if (op->type == X86_OP_REG)
		return DETOUR_INDIRECT_REG;
	return op->type == X86_OP_MEM && op->mem.index == X86_REG_INVALID ? DETOUR_TAIL
									 : DETOUR_INDIRECT;
}

static int is_table_read(const cs_insn *insn)
{
	const cs_x86 *x = &insn->detail->x86;

	return insn->id == X86_INS_MOVSXD && x->op_count == 2 &&
	       x->operands[1].type == X86_OP_MEM && x->operands[1].mem.index != X86_REG_INVALID &&
	       x->operands[1].mem.scale == 4;
}

static enum detour_kind classify(const struct cs_insn *insn, uint64_t *target)
{
	const cs_x86_op *rip = rip_operand(insn);

	if (in_group(insn, CS_GRP_BRANCH_RELATIVE)) {
		*target = insn->detail->x86.operands[0].imm;
		return relative_kind(insn);
	}
	if (rip)
		*target = insn->address + insn->size + rip->mem.disp;
	if (in_group(insn, CS_GRP_JUMP))
		return indirect_kind(insn);
	if (in_group(insn, CS_GRP_CALL))
		return DETOUR_CALL_INDIRECT;
	if (in_group(insn, CS_GRP_RET))
		return DETOUR_RET;
	if (insn->id == X86_INS_ENDBR64)
		return DETOUR_LANDING;
	if (insn->id == X86_INS_NOP || insn->id == X86_INS_INT3)
		return DETOUR_PADDING;
	if (insn->id == X86_INS_UD2 || insn->id == X86_INS_HLT)
		return DETOUR_TRAP;
	if (is_table_read(insn))
		return DETOUR_TABLE_READ;
	if (rip && insn->id == X86_INS_LEA)
		return DETOUR_TABLE_BASE;
	return rip ? DETOUR_PCREL : DETOUR_PLAIN;
}

/*
 * The same instruction, its disp32 re-targeted for pc.  A RIP-relative
 * operand's displacement is always 32 bits (ModR/M mod 00, r/m 101), at
 * the offset capstone gives; its size capstone 4 gets wrong after a 66
 * prefix or a VEX one (2), so the four bytes there are checked to hold
 * the displacement decoded instead.
 */
static int relocate_rip(const cs_insn *insn, const cs_x86_op *rip, uint64_t pc, uint8_t *out)
{
	const cs_x86_encoding *enc = &insn->detail->x86.encoding;
	uint64_t target = insn->address + insn->size + rip->mem.disp;
	int64_t disp = (int64_t)(target - (pc + insn->size));
	int32_t old;

	if (!enc->disp_offset || enc->disp_offset + 4 > insn->size)
		return -DETOUR_UNMOVABLE;
	memcpy(&old, insn->bytes + enc->disp_offset, 4);
	if (old != rip->mem.disp)
		return -DETOUR_UNMOVABLE;
	if (!fits_rel32(disp))
		return -DETOUR_OUT_OF_REACH;
	memcpy(out, insn->bytes, insn->size);
	put_rel32(out + enc->disp_offset, disp);
	return insn->size;
}

/* opcode then rel32 to target, from pc. */
static int branch32(const uint8_t *opcode, unsigned n, uint64_t pc, uint64_t target,
		    uint8_t *out)
{
	int64_t rel = (int64_t)(target - (pc + n + 4));

	if (!fits_rel32(rel))
		return -DETOUR_OUT_OF_REACH;
	memcpy(out, opcode, n);
	put_rel32(out + n, rel);
	return n + 4;
}

/*
 * loop, loope, loopne, jecxz and jrcxz have only a rel8, which cannot
 * reach back from the trampoline:
 *
 *	loop  1f		(taken: over the next jmp)
 *	jmp   2f		(eb 05)
 *   1:	jmp   target		(e9 rel32)
 *   2:
 */
static int relocate_rel8_only(const cs_insn *insn, uint64_t target, uint64_t pc, uint8_t *out)
{
	unsigned n = insn->size;
	int r;

	memcpy(out, insn->bytes, n);
	out[n - 1] = 2;
	out[n] = JMP_REL8;
	out[n + 1] = 5;
	r = branch32((const uint8_t[]){ JMP_REL32 }, 1, pc + n + 2, target, out + n + 2);
	return r < 0 ? r : (int)n + 2 + r;
}

/* A relative branch in its rel32 form (prefixes, bnd or a hint, dropped). */
static int relocate_branch(const cs_insn *insn, uint64_t pc, uint8_t *out)
{
	const cs_x86 *x = &insn->detail->x86;
	uint64_t target = x->operands[0].imm;
	uint8_t cc = (x->opcode[0] == 0x0f ? x->opcode[1] : x->opcode[0]) & 0x0f;

	switch (insn->id) {
	case X86_INS_JMP:
		return branch32((const uint8_t[]){ JMP_REL32 }, 1, pc, target, out);
	case X86_INS_CALL:
		return branch32((const uint8_t[]){ CALL_REL32 }, 1, pc, target, out);
	case X86_INS_LOOP: case X86_INS_LOOPE: case X86_INS_LOOPNE:
	case X86_INS_JRCXZ: case X86_INS_JECXZ:
		return relocate_rel8_only(insn, target, pc, out);
	}
	if (in_group(insn, CS_GRP_JUMP) && (x->opcode[0] & 0xf0) == 0x70)
		return branch32((const uint8_t[]){ 0x0f, 0x80 | cc }, 2, pc, target, out);
	if (in_group(insn, CS_GRP_JUMP) && x->opcode[0] == 0x0f && (x->opcode[1] & 0xf0) == 0x80)
		return branch32((const uint8_t[]){ 0x0f, 0x80 | cc }, 2, pc, target, out);
	return -DETOUR_UNMOVABLE;	/* xbegin: its abort handler is relative */
}

static int relocate(const struct cs_insn *insn, uint64_t pc, uint8_t *out, size_t room)
{
	const cs_x86_op *rip = rip_operand(insn);

	if (room < DETOUR_MAX_RELOC)
		return -DETOUR_NO_ROOM;
	if (in_group(insn, CS_GRP_BRANCH_RELATIVE))
		return relocate_branch(insn, pc, out);
	if (rip)
		return relocate_rip(insn, rip, pc, out);
	memcpy(out, insn->bytes, insn->size);
	return insn->size;
}

static int write_jump(uint64_t from, uint64_t to, uint8_t *out)
{
	return branch32((const uint8_t[]){ JMP_REL32 }, 1, from, to, out) < 0 ? -1 : 0;
}

const struct detour_arch detour_x86_64 = {
	.machine = EM_X86_64,
	.cs_arch = CS_ARCH_X86,
	.cs_mode = CS_MODE_64,
	.jump_len = 5,
	.table_entry = 4,
	.classify = classify,
	.relocate = relocate,
	.write_jump = write_jump,
	.reaim = x86_reaim_rel32,	/* a copy's rel32 and disp32 */
	.plan_step = 1,
};
