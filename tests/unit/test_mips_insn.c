// SPDX-License-Identifier: GPL-2.0
/*
 * mips o32: the words of every patch (ftrace.c) for each form of site the
 * compilers leave, the jal's 256 MB region, the breakpoint, and what the
 * trap handler makes a thread that meets a site do (trap.c).  Built for
 * big-endian mips, as the runtime is (the Makefile's rule for
 * tests/unit/test_ARCH_*.c).  Each expected word is what
 * "mips-linux-gnu-objdump -EB" disassembles as the instruction in its
 * comment, at the address the check uses.
 */
#include "unit.h"
#include "arch/arch.h"

#include <string.h>
#include <ucontext.h>

/* The entry stub lives in assembly in the runtime; a stand-in here. */
char ftrace_caller[4], ftrace_caller_frame[4];

enum { R_SP = 29, R_RA = 31, R_T9 = 25 };

/* Word i of insn, as the big-endian CPU reads it. */
static uint32_t word_at(const uint8_t *insn, unsigned i)
{
	return (uint32_t)insn[4 * i] << 24 | insn[4 * i + 1] << 16 | insn[4 * i + 2] << 8 |
	       insn[4 * i + 3];
}

/* Two words laid out as the big-endian CPU reads them. */
static void put2(uint8_t *insn, uint32_t w0, uint32_t w1)
{
	const uint32_t w[2] = { w0, w1 };

	for (unsigned i = 0; i < 8; i++)
		insn[i] = (uint8_t)(w[i / 4] >> (24 - 8 * (i % 4)));
}

static int words_are(const uint8_t *insn, uint32_t w0, uint32_t w1)
{
	return word_at(insn, 0) == w0 && word_at(insn, 1) == w1;
}

/* The forms of site (ftrace.c's table), each nopped as the compiler's
 * call would have run. */
static void nops(void)
{
	uint8_t orig[8], insn[8];

	put2(orig, 0x0c104000, 0x27bdfff8);	/* jal 0x410000; addiu sp,sp,-8 */
	arch_make_nop(orig, 8, insn);
	/* bnezl zero,.+8 (bnel zero, zero: never taken, its slot annulled) */
	CHECK("mips: gcc -fno-pic -O2 site: bnel zero, zero; addiu sp, sp, -8",
	      words_are(insn, 0x54000001, 0x27bdfff8));
	put2(orig, 0x0320f809, 0x00000000);	/* jalr t9; nop */
	arch_make_nop(orig, 8, insn);
	CHECK("mips: PIC site: addiu sp, sp, 8; nop undoes the adjustment before it",
	      words_are(insn, 0x27bd0008, 0x00000000));
	put2(orig, 0x0c104000, 0x00000000);	/* jal 0x410000; nop */
	arch_make_nop(orig, 8, insn);
	CHECK("mips: -O0 site: addiu sp, sp, 8; nop", words_are(insn, 0x27bd0008, 0x00000000));
	arch_make_nop(NULL, 8, insn);
	CHECK("mips: a site recordmcount nopped: nop; nop", words_are(insn, 0, 0));
	memset(insn, 0xff, sizeof(insn));
	arch_make_nop(NULL, 4, insn);
	CHECK("mips: a 4-byte nop", word_at(insn, 0) == 0 && insn[4] == 0xff);
}

static void calls(void)
{
	uint8_t orig[8], insn[8];

	/* at 0x400000: jal 0x410000 */
	CHECK("mips: jal in its region", arch_make_call(0x400000, NULL, 4, 0x410000, insn) == 0 &&
					  word_at(insn, 0) == 0x0c104000);
	/* at 0xffffff0: jal 0xffffffc, the region's last word */
	CHECK("mips: jal to the region's last word",
	      arch_make_call(0xffffff0, NULL, 4, 0xffffffc, insn) == 0 &&
	      word_at(insn, 0) == 0x0fffffff);
	/* at 0xffffffc: jal 0x10000000 (the region is the delay slot's) */
	CHECK("mips: the region is the delay slot's, not the jal's",
	      arch_make_call(0xffffffc, NULL, 4, 0x10000000, insn) == 0 &&
	      word_at(insn, 0) == 0x0c000000);
	CHECK("mips: no jal out of the region",
	      arch_make_call(0xffffff8, NULL, 4, 0x10000000, insn) == -1 &&
	      arch_make_call(0x400000, NULL, 4, 0x10400000, insn) == -1);
	CHECK("mips: no jal to a misaligned target",
	      arch_make_call(0x400000, NULL, 4, 0x410002, insn) == -1);
	CHECK("mips: a trampoline near a module stays well inside a region",
	      arch_call_reach() == 1ul << 24);

	put2(orig, 0, 0);
	/* at 0x400000: jal 0x410000; nop */
	CHECK("mips: a nopped site calls ftrace_caller: jal; nop",
	      arch_make_call(0x400000, orig, 8, 0x410000, insn) == 0 &&
	      words_are(insn, 0x0c104000, 0x00000000));
	CHECK("mips: ... and no further than jal reaches",
	      arch_make_call(0x400000, orig, 8, 0x10000000, insn) == -1);
	put2(orig, 0x0320f809, 0x27bdfff8);	/* jalr t9; addiu sp,sp,-8 */
	CHECK("mips: a compiler's call stays as it is, whatever the target",
	      arch_make_call(0x400000, orig, 8, 0x7f000000, insn) == 0 && !memcmp(insn, orig, 8));
	put2(orig, 0x03e00825, 0x00000000);	/* move at,ra; nop */
	CHECK("mips: another pair of words is no site",
	      arch_make_call(0x400000, orig, 8, 0x410000, insn) == -1);
}

static void trampoline(void)
{
	uint8_t t[16];

	arch_tramp_write(t, 0x12348765);
	/* lui t9,0x1235; addiu t9,t9,-30875; jr t9; nop */
	CHECK("mips: trampoline lui, addiu (its low half negative), jr t9, nop",
	      arch_tramp_size() == 16 && words_are(t, 0x3c191235, 0x27398765) &&
	      words_are(t + 8, 0x03200008, 0x00000000));
	CHECK("mips: one caller for every site kind",
	      arch_caller_for(SITE_ENTRY) == (uintptr_t)ftrace_caller &&
	      arch_caller_for(SITE_FRAME) == (uintptr_t)ftrace_caller);
}

/* ---- the trap: a thread at a site being patched ---- */

static void stopped_at(ucontext_t *uc, uint32_t site)
{
	memset(uc, 0, sizeof(*uc));
	uc->uc_mcontext.pc = site;
	uc->uc_mcontext.gregs[R_SP] = 0x7fff0000;
	uc->uc_mcontext.gregs[R_RA] = 0x1111;
	uc->uc_mcontext.gregs[R_T9] = 0x420000;
}

static uint32_t reg(const ucontext_t *uc, unsigned r)
{
	return (uint32_t)uc->uc_mcontext.gregs[r];
}

static void breakpoint(void)
{
	uint8_t insn[8];
	ucontext_t uc;

	/* break */
	CHECK("mips: the breakpoint is break",
	      arch_breakpoint_len == 4 && word_at(arch_breakpoint, 0) == 0x0000000d);
	stopped_at(&uc, 0x400000);
	CHECK("mips: the trap's site is at the pc", arch_trap_address(&uc) == 0x400000);

	put2(insn, 0x0c104000, 0x27bdfff8);	/* jal 0x410000; addiu sp,sp,-8 */
	CHECK("mips: jal with its delay slot emulated",
	      arch_emulate(&uc, 0x400000, insn, 8) == 0 && (uint32_t)uc.uc_mcontext.pc == 0x410000 &&
	      reg(&uc, R_RA) == 0x400008 && reg(&uc, R_T9) == 0x410000 &&
	      reg(&uc, R_SP) == 0x7fff0000 - 8);
	stopped_at(&uc, 0x400000);
	put2(insn, 0x0320f809, 0x00000000);	/* jalr t9; nop */
	CHECK("mips: jalr t9 emulated",
	      arch_emulate(&uc, 0x400000, insn, 8) == 0 && (uint32_t)uc.uc_mcontext.pc == 0x420000 &&
	      reg(&uc, R_RA) == 0x400008 && reg(&uc, R_SP) == 0x7fff0000);
	stopped_at(&uc, 0x400000);
	put2(insn, 0x54000001, 0x27bdfff8);	/* bnezl zero,.+8; addiu sp,sp,-8 */
	CHECK("mips: bnel's annulled slot not run",
	      arch_emulate(&uc, 0x400000, insn, 8) == 0 && (uint32_t)uc.uc_mcontext.pc == 0x400008 &&
	      reg(&uc, R_SP) == 0x7fff0000 && reg(&uc, R_RA) == 0x1111);
	stopped_at(&uc, 0x400000);
	put2(insn, 0x27bd0008, 0x00000000);	/* addiu sp,sp,8; nop */
	CHECK("mips: the PIC nop's adjustment run",
	      arch_emulate(&uc, 0x400000, insn, 8) == 0 && (uint32_t)uc.uc_mcontext.pc == 0x400008 &&
	      reg(&uc, R_SP) == 0x7fff0000 + 8);
	stopped_at(&uc, 0x400000);
	put2(insn, 0x27bdfff8, 0x03e00825);	/* addiu sp,sp,-8; move at,ra */
	CHECK("mips: another word refused, the registers as they were",
	      arch_emulate(&uc, 0x400000, insn, 8) == -1 && (uint32_t)uc.uc_mcontext.pc == 0x400000 &&
	      reg(&uc, R_SP) == 0x7fff0000);
}

static void pokes(void)
{
	static uint32_t code[2];
	uint8_t insn[8];

	CHECK("mips: an aligned site is poked by one store", arch_can_poke_atomic(0x1000, 8) &&
							     arch_can_poke_atomic(0x1004, 4));
	CHECK("mips: a misaligned one is not", !arch_can_poke_atomic(0x1002, 8));
	put2((uint8_t *)code, 0x0c104000, 0x27bdfff8);
	put2(insn, 0x54000001, 0x27bdfff8);
	CHECK("mips: the nop changes the call word alone",
	      arch_poke_atomic((uintptr_t)code, insn, 8) == 0 &&
	      words_are((const uint8_t *)code, 0x54000001, 0x27bdfff8));
	put2(insn, 0x27bd0008, 0x00000000);
	CHECK("mips: two words changed at once refused",
	      arch_poke_atomic((uintptr_t)code, insn, 8) == -1);
}

int main(void)
{
	nops();
	calls();
	trampoline();
	breakpoint();
	pokes();
	return unit_done();
}
