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

uintptr_t arch_caller_for(enum site_kind kind)
{
	return (uintptr_t)(kind == SITE_FRAME ? ftrace_caller_frame : ftrace_caller);
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
