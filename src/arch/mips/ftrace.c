// SPDX-License-Identifier: GPL-2.0
/*
 * mips o32: the words of the runtime's patches.
 *
 * A site (decode.c) is the call to _mcount and its delay slot: 8 bytes,
 * ending where the call returns to.  Its nop changes the call word alone:
 * a thread may stand between any two words, and one aligned word is what
 * a store changes at once.  The enabled site is the compiler's own call:
 * through the PLT or the GOT it reaches the runtime's exported _mcount,
 * wherever the library is (jal reaches only its own 256 MB region).
 *
 *   the delay slot adjusts sp (gcc -fno-pic -O2, clang -O2):
 *        move at, ra                    move at, ra
 *        jal _mcount / jalr t9          bnel zero, zero, .+8
 *        addiu sp, sp, -8               addiu sp, sp, -8    (annulled)
 *
 *   the adjustment before the call (gcc PIC, gcc -fno-pic -O0, clang -O0):
 *        move at, ra                    move at, ra
 *        addiu sp, sp, -8               addiu sp, sp, -8
 *       (lw t9, %call16(_mcount)(gp))  (lw t9, ...)         (harmless)
 *        jal _mcount / jalr t9          addiu sp, sp, 8
 *        nop                            nop
 *
 * A site recordmcount --nop left has no adjustment and no call: two nops.
 * Enabled, it calls ftrace_caller (directly, or through a trampoline when
 * ftrace_caller lies in another 256 MB region), which has no adjustment
 * to undo:
 *        nop                            jal ftrace_caller
 *        nop                            nop
 */
#include "../arch.h"

#include <string.h>

#define NOP		0x00000000u
#define ADDIU_SP_M8	0x27bdfff8u	/* addiu sp, sp, -8 */
#define ADDIU_SP_8	0x27bd0008u	/* addiu sp, sp, 8 */
#define BNEL_ZERO	0x54000001u	/* bnel zero, zero, .+8: never taken,
					 * its delay slot annulled */
#define JAL		0x0c000000u
#define JALR_T9		0x0320f809u
#define MOVE_AT_RA	0x03e00825u	/* move at, ra (or at, ra, zero) */
#define SW_RA_SP	0xafbf0000u	/* sw ra, imm(sp) */
#define ADDIU_SP_SP	0x27bd0000u	/* addiu sp, sp, imm */
#define JR		0x00000008u	/* jr rs */
#define J		0x08000000u	/* j target */
#define HI16		0xffff0000u

const unsigned ftrace_call_len = 4;

enum site_form { FORM_DELAY, FORM_BEFORE, FORM_NOPPED, FORM_UNKNOWN };

static int is_call(uint32_t w)
{
	return (w & 0xfc000000u) == JAL || w == JALR_T9;
}

static enum site_form form_of(const uint32_t *w)
{
	if (w[0] == NOP && w[1] == NOP)
		return FORM_NOPPED;
	if (is_call(w[0]) && w[1] == ADDIU_SP_M8)
		return FORM_DELAY;
	if (is_call(w[0]) && w[1] == NOP)
		return FORM_BEFORE;
	return FORM_UNKNOWN;
}

void arch_make_nop(const uint8_t *orig, unsigned len, uint8_t *insn)
{
	uint32_t w[2] = { 0, 0 };

	if (orig && len == 8) {
		memcpy(w, orig, 8);
		switch (form_of(w)) {
		case FORM_DELAY:
			w[0] = BNEL_ZERO;
			break;
		case FORM_BEFORE:
			w[0] = ADDIU_SP_8;
			break;
		default:
			break;
		}
	}
	memcpy(insn, w, len <= 8 ? len : 8);
}

/* "jal target" at ip, or -1 if target lies outside ip's 256 MB region. */
static int make_jal(uintptr_t ip, uintptr_t target, uint32_t *w)
{
	if (((ip + 4) ^ target) & 0xf0000000u || (target & 3))
		return -1;
	*w = JAL | (uint32_t)((target & 0x0fffffffu) >> 2);
	return 0;
}

int arch_make_call(uintptr_t ip, const uint8_t *orig, unsigned len, uintptr_t target,
		   uint8_t *insn)
{
	uint32_t w[2];

	if (!orig) {
		if (len != 4 || make_jal(ip, target, w))
			return -1;
		memcpy(insn, w, 4);
		return 0;
	}
	if (len != 8)
		return -1;
	memcpy(w, orig, 8);
	switch (form_of(w)) {
	case FORM_DELAY:
	case FORM_BEFORE:
		break;			/* the compiler's call to _mcount */
	case FORM_NOPPED:
		if (make_jal(ip, target, &w[0]))
			return -1;
		break;
	default:
		return -1;
	}
	memcpy(insn, w, 8);
	return 0;
}

/* A trampoline near a module lies within reach of all of it; jal reaches
 * its own 256 MB region, so stay well inside one. */
uintptr_t arch_call_reach(void)
{
	return 1ul << 24;
}

/*
 * A far-call trampoline (t9 is free at a site, as in a PLT stub):
 *   lui   t9, %hi(target)
 *   addiu t9, t9, %lo(target)
 *   jr    t9
 *   nop
 */
size_t arch_tramp_size(void)
{
	return 16;
}

void arch_tramp_write(uint8_t *at, uintptr_t target)
{
	uint32_t hi = (uint32_t)((target + 0x8000) >> 16) & 0xffff;
	uint32_t w[4] = { 0x3c190000u | hi, 0x27390000u | (target & 0xffff), 0x03200008u, NOP };

	memcpy(at, w, sizeof(w));
}

uintptr_t arch_caller_for(enum site_kind kind)
{
	return (uintptr_t)ftrace_caller;
}

/*
 * Where the traced function keeps its parent's return address, for the
 * graph tracer (as the kernel's ftrace_get_parent_ra_addr): its prologue,
 * before "move at, ra", stores ra with "sw ra, off(sp)", after the
 * "addiu sp, sp, -size" that made its frame.  sp is the function's stack
 * pointer at the site.  A function that stores no ra (a leaf, to the
 * compiler) returns through the ra _mcount gives back: the at that
 * ftrace_caller saved at at_slot.  *caller_sp: sp + size, or sp in a
 * function with no frame (the scan meets the jump that ends the function
 * before), as retstack.c keys its notes.
 */
#define SCAN_WORDS 32

static int ends_function(uint32_t w)
{
	return (w & 0xfc00003fu) == JR || (w & 0xfc000000u) == J;
}

uintptr_t *mips_parent_slot(uintptr_t ra, uintptr_t sp, uintptr_t *at_slot,
			    uintptr_t *caller_sp)
{
	const uint32_t *p = (const uint32_t *)ra - 2;	/* the call */
	const uint32_t *stop = p - SCAN_WORDS;
	uintptr_t *slot = NULL;
	unsigned i = 1;

	*caller_sp = sp;
	while (i <= 3 && p[-i] != MOVE_AT_RA)
		i++;
	if (i > 3)
		return at_slot;
	for (p -= i + 1; p > stop && !ends_function(*p); p--) {
		if ((*p & HI16) == SW_RA_SP && !(*p & 3) && !slot) {
			slot = (uintptr_t *)(sp + (int16_t)*p);
		} else if ((*p & HI16) == ADDIU_SP_SP && (*p & 0x8000)) {
			*caller_sp = sp - (int16_t)*p;
			break;
		}
	}
	return slot && *slot == *at_slot ? slot : at_slot;
}
