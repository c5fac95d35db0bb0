// SPDX-License-Identifier: GPL-2.0
/* x86_64 encoders: the exact bytes of every patch, and the reach limit. */
#include "unit.h"
#include "arch/arch.h"

#include <string.h>

/* The entry stubs live in assembly in the runtime; stand-ins here. */
char ftrace_caller[1], ftrace_caller_frame[1], ftrace_return_caller[1], ftrace_tail_caller[1];
char ftrace_caller_detour[1], ftrace_detour_call[1], return_to_handler[1], ftrace_fix_pc_arg[1];

/* A library call's stub, and which GOT slots code only calls through. */
static void libcalls(void)
{
	/* At 0x1000, each referring to a slot at 0x2000 + 8 * n:
	 *   call *A(%rip); mov B(%rip),%rax; jmp *C(%rip);
	 *   cmpq $0,D(%rip); call *D(%rip)         (E: none) */
	static const uint8_t code[] = {
		0xff, 0x15, 0xfa, 0x0f, 0x00, 0x00,
		0x48, 0x8b, 0x05, 0xfb, 0x0f, 0x00, 0x00,
		0xff, 0x25, 0xfd, 0x0f, 0x00, 0x00,
		0x48, 0x83, 0x3d, 0xfd, 0x0f, 0x00, 0x00, 0x00,
		0xff, 0x15, 0xf7, 0x0f, 0x00, 0x00,
	};
	static const uint64_t slots[] = { 0x2000, 0x2008, 0x2010, 0x2018, 0x2020 };
	uint8_t stub[ARCH_LIBCALL_STUB], use[5] = { 0 };

	CHECK("x86_64: library call stub returns after its call", arch_libcall_stub(stub, 4096) == 6);
	CHECK("x86_64: ... call *caller(%rip); jmp *target(%rip), a page on",
	      unit_bytes_are(stub, "ff 15 fa 0f 00 00 ff 25 fc 0f 00 00 0f 0b 0f 0b"));
	arch_got_uses(code, sizeof(code), 0x1000, slots, 5, use);
	CHECK("x86_64: GOT slots called through, by call and by jmp",
	      use[0] == ARCH_GOT_CALLED && use[2] == ARCH_GOT_CALLED);
	CHECK("x86_64: ... a slot whose address is loaded is not only called",
	      use[1] == ARCH_GOT_OTHER);
	CHECK("x86_64: ... nor one compared with an immediate, then called",
	      use[3] == (ARCH_GOT_CALLED | ARCH_GOT_OTHER));
	CHECK("x86_64: ... and a slot not referred to has no use", use[4] == 0);
}

/* arch_detour_call(): the head, its three RIP-relative fields reading the
 * words word_off on (caller, handler, ftrace_detour_call), returning to
 * offset 8; the lea aims at the copy, right after the head. */
static int detour_head_is(intptr_t word_off, unsigned want_resume)
{
	uint8_t code[48];
	unsigned resume = 0, len = arch_detour_call(code, word_off, &resume);

	return len == 39 && resume == want_resume &&
	       unit_bytes_are(code, "41 53 ff 15 38 00 00 00 4c 3b 1d 39 00 00 00 75 14 "
				    "4c 8d 1d 0f 00 00 00 4c 89 5c 24 f8 41 5b "
				    "ff 25 2b 00 00 00 41 5b");
}

static int detour_words_are(void)
{
	uintptr_t w[ARCH_DETOUR_WORDS];

	return arch_detour_words(w) == 4 && w[0] == (uintptr_t)ftrace_caller_detour &&
	       w[1] == (uintptr_t)return_to_handler && w[2] == (uintptr_t)ftrace_detour_call &&
	       w[3] == (uintptr_t)ftrace_fix_pc_arg;
}

/* arch_detour_pc_call(): one call through the fourth word, 0x40 + 24
 * bytes from the stub, its field relative to the call's end. */
static int pc_fix_head_is(void)
{
	uint8_t code[8];

	return arch_detour_pc_call(code, 0x40) == 6 && unit_bytes_are(code, "ff 15 52 00 00 00");
}

int main(void)
{
	uint8_t insn[16];

	arch_make_nop(NULL, 5, insn);
	CHECK("x86_64: 5-byte nop", unit_bytes_are(insn, "0f 1f 44 00 00"));
	arch_make_nop(NULL, 6, insn);
	CHECK("x86_64: 6-byte nop", unit_bytes_are(insn, "66 0f 1f 44 00 00"));
	CHECK("x86_64: call forward", arch_make_call(0x1000, NULL, 5, 0x2005, insn) == 0 &&
				      unit_bytes_are(insn, "e8 00 10 00 00"));
	CHECK("x86_64: call backward", arch_make_call(0x2000, NULL, 5, 0x1000, insn) == 0 &&
				       unit_bytes_are(insn, "e8 fb ef ff ff"));
	CHECK("x86_64: 6-byte call keeps one instruction",
	      arch_make_call(0x1000, NULL, 6, 0x1006, insn) == 0 && unit_bytes_are(insn, "67 e8 00 00 00 00"));
	CHECK("x86_64: call out of reach refused",
	      arch_make_call(0x1000, NULL, 5, 0x1000 + (1ul << 32), insn) == -1);
	CHECK("x86_64: call at the edge of reach",
	      arch_make_call(0x1000, NULL, 5, 0x1005ul + 0x7fffffff, insn) == 0);
	arch_tramp_write(insn, 0x1122334455667788ul);
	CHECK("x86_64: trampoline jmp *0(%rip)",
	      unit_bytes_are(insn, "ff 25 00 00 00 00 88 77 66 55 44 33 22 11"));
	CHECK("x86_64: caller per site kind",
	      arch_caller_for(SITE_ENTRY) == (uintptr_t)ftrace_caller &&
	      arch_caller_for(SITE_FRAME) == (uintptr_t)ftrace_caller_frame &&
	      arch_caller_for(SITE_RETURN) == (uintptr_t)ftrace_return_caller &&
	      arch_caller_for(SITE_TAIL_CALL) == (uintptr_t)ftrace_tail_caller &&
	      arch_caller_for(SITE_DETOUR) == (uintptr_t)ftrace_caller_detour);
	CHECK("x86_64: a detour's stub head: the hook's call, then the paired call or the copy",
	      detour_head_is(0x40, 8));
	CHECK("x86_64: ... reading ftrace_caller_detour, return_to_handler, ftrace_detour_call "
	      "(and a pc fix's ftrace_fix_pc_arg)", detour_words_are());
	CHECK("x86_64: a pc fix's head: call *ftrace_fix_pc_arg(%rip), the copy after it",
	      pc_fix_head_is());
	CHECK("x86_64: after a return site, ret, ret imm16, rep ret, bnd ret are returns",
	      arch_insn_is_return((const uint8_t[]){ 0xc3 }) &&
	      arch_insn_is_return((const uint8_t[]){ 0xc2, 0x08, 0x00 }) &&
	      arch_insn_is_return((const uint8_t[]){ 0xf3, 0xc3 }) &&
	      arch_insn_is_return((const uint8_t[]){ 0xf2, 0xc3 }));
	CHECK("x86_64: ... and jmp rel32, jmp rel8, jmp *GOT are tail calls",
	      !arch_insn_is_return((const uint8_t[]){ 0xe9, 0, 0, 0, 0 }) &&
	      !arch_insn_is_return((const uint8_t[]){ 0xeb, 0xb1 }) &&
	      !arch_insn_is_return((const uint8_t[]){ 0xff, 0x25, 0, 0, 0, 0 }));
	libcalls();
	return unit_done();
}
