// SPDX-License-Identifier: GPL-2.0
/* aarch64 encoders: the exact words of every patch, and the reach limit. */
#include "unit.h"
#include "arch/arch.h"
#include "aarch64.h"

#include <string.h>

/* The entry stubs live in assembly in the runtime; stand-ins here. */
char ftrace_caller[1], ftrace_caller_frame[1], ftrace_caller_detour[1];
char ftrace_return_caller[1], ftrace_tail_caller[1], ftrace_fix_pc_arg[1];

/* Word i of insn, as the (little-endian) CPU reads it. */
static uint32_t word_at(const uint8_t *insn, unsigned i)
{
	return insn[4 * i] | insn[4 * i + 1] << 8 | insn[4 * i + 2] << 16 |
	       (uint32_t)insn[4 * i + 3] << 24;
}

static void test_nops(void)
{
	uint8_t insn[16];

	arch_make_nop(NULL, 4, insn);
	CHECK("aarch64: -pg site nop", word_at(insn, 0) == 0xd503201f);
	arch_make_nop(NULL, 8, insn);
	CHECK("aarch64: entry site nop keeps mov x9, x30",
	      word_at(insn, 0) == 0xaa1e03e9 && word_at(insn, 1) == 0xd503201f);
}

static void test_calls(void)
{
	uint8_t insn[16];

	CHECK("aarch64: bl forward", arch_make_call(0x1000, NULL, 4, 0x2000, insn) == 0 &&
				     word_at(insn, 0) == 0x94000400);
	CHECK("aarch64: bl backward", arch_make_call(0x2000, NULL, 4, 0x1000, insn) == 0 &&
				      word_at(insn, 0) == 0x97fffc00);
	CHECK("aarch64: entry call is mov x9, x30; bl from the second word",
	      arch_make_call(0x1000, NULL, 8, 0x2004, insn) == 0 &&
	      word_at(insn, 0) == 0xaa1e03e9 && word_at(insn, 1) == 0x94000400);
	CHECK("aarch64: bl at the edge of reach, forward",
	      arch_make_call(0x10000000, NULL, 4, 0x10000000 + (1ul << 27) - 4, insn) == 0 &&
	      word_at(insn, 0) == 0x95ffffff);
	CHECK("aarch64: bl at the edge of reach, backward",
	      arch_make_call(0x10000000, NULL, 4, 0x10000000 - (1ul << 27), insn) == 0 &&
	      word_at(insn, 0) == 0x96000000);
	CHECK("aarch64: bl out of reach refused",
	      arch_make_call(0x10000000, NULL, 4, 0x10000000 + (1ul << 27), insn) == -1);
	CHECK("aarch64: misaligned target refused",
	      arch_make_call(0x1000, NULL, 4, 0x1002, insn) == -1);
	CHECK("aarch64: reach leaves room for a trampoline's page",
	      arch_call_reach() + 65536 + 8 < (1ul << 27));
}

/* A detour's head keeps x9, which the function's callers may still need
 * (gcc's -fipa-ra): the parent's return address goes in x17. */
static void test_detour_head(void)
{
	static uint8_t stub[4096 * 3] __attribute__((aligned(4096)));
	uint8_t *code = stub + 4096 + 0x10;
	unsigned resume = 0, len;

	len = arch_detour_call(code, stub - code, &resume);
	CHECK("aarch64: detour head: mov x17, x30; adrp x16; ldr x16; blr x16",
	      len == 16 && resume == 16 && word_at(code, 0) == 0xaa1e03f1 &&
	      (word_at(code, 1) & 0x9f00001f) == 0x90000010 &&
	      (word_at(code, 2) & 0xffc003ff) == 0xf9400210 && word_at(code, 3) == 0xd63f0200);
	CHECK("aarch64: detour head: the adrp reaches the block's page",
	      ((word_at(code, 1) >> 29 & 3) | (word_at(code, 1) >> 5 & 0x7ffff) << 2) ==
		      0x1fffff);
	CHECK("aarch64: caller per site kind",
	      arch_caller_for(SITE_ENTRY) == (uintptr_t)ftrace_caller &&
	      arch_caller_for(SITE_FRAME) == (uintptr_t)ftrace_caller_frame &&
	      arch_caller_for(SITE_DETOUR) == (uintptr_t)ftrace_caller_detour);
}

/* A pc fix's head is a detour's, through the block's fourth word, which
 * holds ftrace_fix_pc_arg: its ldr's offset is the first word's + 24. */
static void test_pc_fix_head(void)
{
	static uint8_t stub[4096 * 2] __attribute__((aligned(4096)));
	uint8_t *code = stub + 0x40;
	uintptr_t words[ARCH_DETOUR_WORDS];
	unsigned len = arch_detour_pc_call(code, stub - code);

	CHECK("aarch64: pc fix head: mov x17, x30; adrp x16; ldr x16, [x16, #24]; blr x16",
	      len == 16 && word_at(code, 0) == 0xaa1e03f1 && word_at(code, 1) == 0x90000010 &&
	      word_at(code, 2) == (0xf9400210 | 3 << 10) && word_at(code, 3) == 0xd63f0200);
	CHECK("aarch64: pc fix: the fourth word is ftrace_fix_pc_arg",
	      arch_detour_words(words) == 4 && words[3] == (uintptr_t)ftrace_fix_pc_arg);
}

int main(void)
{
	uint8_t insn[16];

	test_nops();
	test_calls();
	test_detour_head();
	test_pc_fix_head();
	arch_tramp_write(insn, 0x1122334455667788ul);
	CHECK("aarch64: trampoline ldr x16, #8; br x16; target",
	      arch_tramp_size() == 16 && word_at(insn, 0) == 0x58000050 &&
	      word_at(insn, 1) == 0xd61f0200 && word_at(insn, 2) == 0x55667788 &&
	      word_at(insn, 3) == 0x11223344);
	CHECK("aarch64: caller per site kind",
	      arch_caller_for(SITE_ENTRY) == (uintptr_t)ftrace_caller &&
	      arch_caller_for(SITE_FRAME) == (uintptr_t)ftrace_caller_frame &&
	      arch_caller_for(SITE_RETURN) == (uintptr_t)ftrace_return_caller &&
	      arch_caller_for(SITE_TAIL_CALL) == (uintptr_t)ftrace_tail_caller);
	arch_return_site_off(insn);
	CHECK("aarch64: a return site off: mov x16, x30; nop",
	      ARCH_RETURN_SITE_PRE == 4 && ARCH_RETURN_SITE_LEN == 4 &&
	      word_at(insn, 0) == 0xaa1e03f0 && word_at(insn, 1) == 0xd503201f);
	CHECK("aarch64: what follows a return site: ret, else a tail call's jump",
	      arch_insn_is_return((const uint8_t *)"\xc0\x03\x5f\xd6") &&
	      !arch_insn_is_return((const uint8_t *)"\x05\x00\x00\x14") &&
	      !arch_insn_is_return((const uint8_t *)"\x20\x01\x1f\xd6"));
	CHECK("aarch64: branch target of b and bl",
	      a64_branch_target(0x2000, 0x97fffc00) == 0x1000 &&
	      a64_is_b(0x14000001) && !a64_is_b(0x94000001) && a64_is_bl(0x94000001));
	return unit_done();
}
