// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64: the words of the runtime's patches.
 *
 *   -pg site (4 bytes, after the prologue; what the compiler left:
 *   "bl _mcount@plt", or the nop fntrace cc / recordmcount --nop made):
 *       nop:   d503201f  nop
 *       call:  94xxxxxx  bl ftrace_caller_frame      (or a trampoline)
 *
 *   patchable entry (8 bytes, -fpatchable-function-entry=2: "nop; nop"):
 *       nop:   aa1e03e9  mov x9, x30      d503201f  nop
 *       call:  aa1e03e9  mov x9, x30      94xxxxxx  bl ftrace_caller
 *
 * The entry site's first word is written once, when its module is
 * loaded; from then on nop and call differ in the second word alone, and
 * NOP <-> BL in one aligned word is a change the architecture lets other
 * CPUs run through (see trap.c).  The parent's return address has to be
 * kept out of x30, which the bl overwrites: x9 is a scratch register at a
 * function's entry, as in the kernel's arm64 ftrace.
 *
 * An enabled -pg site calls ftrace_caller_frame directly, not through the
 * compiler's "bl _mcount@plt": a nopped site (fntrace cc) has no such
 * call, and one form for every site keeps the PLT's indirect jump out of
 * the traced path.  Beyond a bl's reach (+-128 MiB) it calls a trampoline
 * mapped near its module instead.
 */
#include "../arch.h"
#include "aarch64.h"

#include <string.h>

extern char ftrace_caller_detour[], ftrace_fix_pc_arg[];	/* entry.S */

const unsigned ftrace_call_len = 4;

static void put(uint8_t *insn, unsigned word, uint32_t v)
{
	memcpy(insn + 4 * word, &v, 4);
}

void arch_make_nop(const uint8_t *orig, unsigned len, uint8_t *insn)
{
	if (len == 8)
		put(insn, 0, A64_MOV_X9_X30);
	put(insn, len / 4 - 1, A64_NOP);
}

int arch_make_call(uintptr_t ip, const uint8_t *orig, unsigned len, uintptr_t target,
		   uint8_t *insn)
{
	uintptr_t at = ip + len - 4;	/* the bl is the site's last word */
	uint32_t bl;

	if ((len != 4 && len != 8) || a64_encode_bl(at, target, &bl))
		return -1;
	if (len == 8)
		put(insn, 0, A64_MOV_X9_X30);
	put(insn, len / 4 - 1, bl);
	return 0;
}

uintptr_t arch_call_reach(void)
{
	/* bl reaches +-128 MiB; a megabyte of margin covers a trampoline's
	 * place in its page (4 KiB or 64 KiB) and the site's own size. */
	return (1ul << 27) - (1ul << 20);
}

/*
 * A far-call trampoline:  58000050   ldr x16, #8
 *                         d61f0200   br  x16
 *                         <8-byte target>
 * x16 is the intra-procedure-call scratch register: a linker's veneers
 * clobber it at any call, so no code expects it kept across the site.
 */
size_t arch_tramp_size(void)
{
	return 16;
}

void arch_tramp_write(uint8_t *at, uintptr_t target)
{
	put(at, 0, A64_LDR_X16_8);
	put(at, 1, A64_BR_X16);
	memcpy(at + 8, &target, sizeof(target));
}

/*
 * A detour's stub (core/detours.c) does what a patchable entry's two
 * words do, through a register, as ftrace_caller_detour is rarely within
 * a bl's reach of a stub; its address is the stub block's first word:
 *
 *   aa1e03f1   mov  x17, x30               the caller's return address
 *   9xxxxx10   adrp x16, block
 *   f94xxx10   ldr  x16, [x16, #:lo12:block]
 *   d63f0200   blr  x16                    returns to stub + 16
 *
 * entered by the entry's one-word "b stub"; the function's first
 * instruction, relocated, and "b entry + 4" follow.  x16 and x17 are
 * free at a function's entry (the far-call trampoline above clobbers x16
 * too); x9, which a patchable entry uses, is not: the function's callers
 * may keep a value in it (entry.S).  The block is within 128 MB of the
 * stub, the page count always fits.
 */
unsigned arch_detour_call(uint8_t *code, intptr_t word_off, unsigned *resume)
{
	uintptr_t pc = (uintptr_t)code, word = pc + (uintptr_t)word_off;
	int64_t pages = (int64_t)((word >> 12) - ((pc + 4) >> 12));

	if (word & 7)
		return 0;
	put(code, 0, A64_MOV_X17_X30);
	put(code, 1, A64_ADRP | 16 | ((uint32_t)pages & 3) << 29 |
			     ((uint32_t)(pages >> 2) & 0x7ffff) << 5);
	put(code, 2, 0xf9400210u | (uint32_t)((word & 0xfff) >> 3) << 10);
	put(code, 3, A64_BLR_X16);
	*resume = 16;
	return 16;
}

/*
 * A pc fix's head (detours.c): the same four words, through the block's
 * fourth word, to ftrace_fix_pc_arg, which hands back every register but
 * the hook's pc argument, x0, with x30 the caller's again (from x17):
 *
 *   mov  x17, x30; adrp x16, block; ldr x16, [x16, #:lo12:block + 24]
 *   blr  x16                    -> ftrace_fix_pc_arg, back to stub + 16
 *   the hook's first instruction, relocated; b hook + 4
 */
unsigned arch_detour_pc_call(uint8_t *code, intptr_t word_off)
{
	unsigned resume;

	return arch_detour_call(code, word_off + 3 * 8, &resume);
}

/* The words the heads read: ftrace_caller_detour's address, and the pc
 * fix's at the fourth, where x86_64 has it. */
unsigned arch_detour_words(uintptr_t *words)
{
	words[0] = arch_caller_for(SITE_DETOUR);
	words[1] = 0;
	words[2] = 0;
	words[3] = (uintptr_t)ftrace_fix_pc_arg;
	return 4;
}

/*   14xxxxxx   b stub      (one word, the function's first after a BTI) */
int arch_detour_jump(uintptr_t entry, uintptr_t stub, uint8_t *insn, unsigned *len)
{
	int64_t off = (int64_t)(stub - entry);

	if (off < -(1ll << 27) || off >= (1ll << 27))
		return -1;
	put(insn, 0, A64_B | ((uint32_t)(off >> 2) & 0x03ffffffu));
	*len = 4;
	return 0;
}

int arch_detour_reaim(uint8_t *p, uintptr_t from, uintptr_t to)
{
	return a64_reaim(p, from, to);
}

uintptr_t arch_caller_for(enum site_kind kind)
{
	if (kind == SITE_RETURN)
		return (uintptr_t)ftrace_return_caller;
	if (kind == SITE_TAIL_CALL)
		return (uintptr_t)ftrace_tail_caller;
	if (kind == SITE_DETOUR)
		return (uintptr_t)ftrace_caller_detour;
	return (uintptr_t)(kind == SITE_FRAME ? ftrace_caller_frame : ftrace_caller);
}

/*
 * A return site, made of an XRay sled by recordmcount (decode.c): the
 * word after it is the function's "ret", or a tail call's b or br.
 *
 *   off:  f0 03 1e aa   mov x16, x30      1f 20 03 d5   nop
 *   on:   f0 03 1e aa   mov x16, x30      94xxxxxx      bl ftrace_return_caller
 */
int arch_insn_is_return(const uint8_t *insn)
{
	uint32_t w;

	memcpy(&w, insn, 4);
	return w == A64_RET;
}

void arch_return_site_off(uint8_t *insn)
{
	put(insn, 0, A64_MOV_X16_X30);
	put(insn, 1, A64_NOP);
}

/* x0-x7 are words 2-9 of the block ftrace_common saves (entry.S).  A -pg
 * function has moved its arguments before it calls _mcount: only its
 * return value can be read. */
const struct arch_arg_regs arch_arg_regs = {
	.nr_int = 8,
	.nr_fp = 8,
	.entry_only = 1,
	.int_slot = { 2, 3, 4, 5, 6, 7, 8, 9 },
};
