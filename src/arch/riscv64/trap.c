// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64: the breakpoint of the live-patching protocol, and what a thread
 * that hits it is made to do.
 *
 *   during a patch:   02 90 00 00            c.ebreak over the first parcel
 *   the thread:       traps with pc = site (riscv reports the ebreak's own pc)
 *   new nop:          pc = site + len        (nop, or "j +8; nop")
 *   new call:         rd = site + len; pc = target
 *                     (jal rd / auipc rd + jalr rd, lo(rd))
 *
 * The 2-byte c.ebreak, not the 4-byte ebreak: with compressed code a
 * 4-byte instruction may sit on a 2-byte boundary, and one aligned 16-bit
 * store is all the patcher can write atomically there.  A c.ebreak is a
 * whole instruction: no thread ever fetches the parcel after it while it
 * is there, so the rest of the site is free to change under it.
 */
#include "../arch.h"
#include "riscv64.h"

#include <string.h>
#include <ucontext.h>

const uint8_t arch_breakpoint[] = { RV_C_EBREAK & 0xff, RV_C_EBREAK >> 8 };
const unsigned arch_breakpoint_len = 2;

static unsigned long *regs(void *ucontext)
{
	return ((ucontext_t *)ucontext)->uc_mcontext.__gregs;
}

uintptr_t arch_trap_address(const void *ucontext)
{
	return regs((void *)ucontext)[REG_PC];
}

void arch_restart_at(void *ucontext, uintptr_t addr)
{
	regs(ucontext)[REG_PC] = addr;
}

static void set_reg(unsigned long *r, unsigned reg, uintptr_t v)
{
	if (reg != RV_ZERO)
		r[reg] = v;
}

/* Words of nothing but c.nop, or nop: the compiler's patchable entry. */
static int all_nops(const uint8_t *insn, unsigned len)
{
	for (unsigned i = 0; i < len; i += 4) {
		uint32_t w;

		memcpy(&w, insn + i, 4);
		if (w != RV_NOP && w != (RV_C_NOP | RV_C_NOP << 16))
			return 0;
	}
	return 1;
}

/* jal rd, off: our nops "j +8", and the calls of 4-byte sites. */
static void emulate_jal(unsigned long *r, uintptr_t addr, uint32_t w)
{
	set_reg(r, rv_rd(w), addr + 4);
	r[REG_PC] = addr + rv_imm_j(w);
}

/* auipc rd, hi; jalr rd2, lo(rd) */
static int emulate_auipc_jalr(unsigned long *r, uintptr_t addr, uint32_t hi, uint32_t lo)
{
	uintptr_t base = addr + rv_imm_u(hi);

	if (!rv_is_auipc(hi, rv_rd(hi)) || !rv_is_jalr(lo, rv_rd(lo), rv_rd(hi)))
		return -1;
	set_reg(r, rv_rd(hi), base);
	set_reg(r, rv_rd(lo), addr + 8);
	r[REG_PC] = (base + rv_imm_i(lo)) & ~(uintptr_t)1;
	return 0;
}

int arch_emulate(void *ucontext, uintptr_t addr, const uint8_t *insn, unsigned len)
{
	unsigned long *r = regs(ucontext);
	uint32_t w0, w1;

	if (len != 4 && len != 8)
		return -1;
	if (all_nops(insn, len)) {
		r[REG_PC] = addr + len;
		return 0;
	}
	memcpy(&w0, insn, 4);
	if (rv_opcode(w0) == RV_OP_JAL) {
		emulate_jal(r, addr, w0);
		return 0;
	}
	if (len != 8)
		return -1;
	memcpy(&w1, insn + 4, 4);
	return emulate_auipc_jalr(r, addr, w0, w1);
}

/*
 * One aligned store of 2, 4 or 8 bytes is seen whole by every fetch.  An
 * 8-byte site written at once may be met half old by a thread that ran
 * its first word before the store: see ftrace.c for why that is safe.
 */
int arch_can_poke_atomic(uintptr_t addr, unsigned len)
{
	return (len == 2 || len == 4 || len == 8) && (addr & (len - 1)) == 0;
}

int arch_poke_atomic(uintptr_t addr, const uint8_t *insn, unsigned len)
{
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	if (!arch_can_poke_atomic(addr, len))
		return -1;
	if (len == 8) {
		memcpy(&v8, insn, 8);
		__atomic_store_n((uint64_t *)addr, v8, __ATOMIC_SEQ_CST);
	} else if (len == 4) {
		memcpy(&v4, insn, 4);
		__atomic_store_n((uint32_t *)addr, v4, __ATOMIC_SEQ_CST);
	} else {
		memcpy(&v2, insn, 2);
		__atomic_store_n((uint16_t *)addr, v2, __ATOMIC_SEQ_CST);
	}
	__builtin___clear_cache((char *)addr, (char *)addr + len);
	return 0;
}
