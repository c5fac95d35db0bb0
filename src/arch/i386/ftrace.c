// SPDX-License-Identifier: GPL-2.0
/*
 * i386: the bytes of the runtime's patches.
 *
 *   5-byte site   nop:  3e 8d 74 26 00          call:  e8 rel32
 *   6-byte site   nop:  8d b6 00 00 00 00       call:  67 e8 rel32
 *
 * The nops are the kernel's for 32-bit x86 and recordmcount's (decode.c):
 * one instruction each, "lea 0(%esi),%esi", changing nothing.  A 6-byte
 * site is gcc's "call *mcount@GOT(%ebx)" in PIC code; enabled, it becomes
 * a direct call padded by the addr32 prefix, as ld relaxes the same
 * instruction: still one instruction, so no thread can stop halfway
 * through it.  (Re-using the GOT call would land in mcount, ftrace_stub.)
 *
 * Far calls cannot happen: rel32 wraps around the 4 GiB address space, so
 * a call reaches every address, and no site ever needs a trampoline.
 */
#include "../arch.h"
#include "../x86/x86.h"

#include <string.h>

extern char ftrace_caller_realigned[];

static const uint8_t nop5[] = { 0x3e, 0x8d, 0x74, 0x26, 0x00 };
static const uint8_t nop6[] = { 0x8d, 0xb6, 0x00, 0x00, 0x00, 0x00 };

const unsigned ftrace_call_len = 5;

void arch_make_nop(const uint8_t *orig, unsigned len, uint8_t *insn)
{
	memcpy(insn, len == 6 ? nop6 : nop5, len);
}

int arch_make_call(uintptr_t ip, const uint8_t *orig, unsigned len, uintptr_t target,
		   uint8_t *insn)
{
	return x86_write_call(len, (uint32_t)(target - (ip + len)), insn);
}

uintptr_t arch_call_reach(void)
{
	return UINTPTR_MAX;
}

/*
 * A trampoline, for the contract's sake (nothing is ever out of reach):
 *   e9 rel32   jmp target
 *   cc cc cc
 */
size_t arch_tramp_size(void)
{
	return 8;
}

void arch_tramp_write(uint8_t *at, uintptr_t target)
{
	uint32_t rel32 = (uint32_t)(target - ((uintptr_t)at + 5));

	at[0] = 0xe9;
	memcpy(at + 1, &rel32, 4);
	memset(at + 5, 0xcc, 3);
}

uintptr_t arch_caller_for(enum site_kind kind)
{
	if (kind == SITE_FRAME_REALIGNED)
		return (uintptr_t)ftrace_caller_realigned;
	return (uintptr_t)(kind == SITE_FRAME ? ftrace_caller_frame : ftrace_caller);
}
