// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64: the frame description of a return to return_to_handler that
 * the unwinder is to step through as if it were not there
 * (src/core/unwind_fde.c).  A CIE and its FDE, as in .eh_frame:
 *
 *   CIE  version 1, no augmentation (pointers absolute, 8 bytes),
 *        code align 1, data align -8, return address column 1 (ra)
 *   FDE  [pc, pc + 2)
 *        DW_CFA_def_cfa sp, 0            the caller's stack pointer is ours
 *        DW_CFA_val_expression ra,       the return address is ret
 *            DW_OP_const8u ret
 *
 * Every other register is left unsaved: it has its value in the caller.
 */
#include "../arch.h"

#include <string.h>

enum {
	DW_CFA_nop = 0x00,
	DW_CFA_def_cfa = 0x0c,
	DW_CFA_val_expression = 0x16,
	DW_OP_const8u = 0x0e,
	DW_REG_RA = 1,
	DW_REG_SP = 2,
	CIE_SIZE = 16,		/* length word included */
	FDE_SIZE = 40,
};

static unsigned char *put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
	return p + 4;
}

static unsigned char *put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
	return p + 8;
}

static void write_cie(unsigned char *cie)
{
	static const unsigned char body[] = {
		1, 0,		/* version, augmentation "" */
		1, 0x78,	/* code align 1, data align -8 (sleb128) */
		DW_REG_RA,
		DW_CFA_nop, DW_CFA_nop, DW_CFA_nop,
	};
	unsigned char *p = put32(put32(cie, CIE_SIZE - 4), 0);

	memcpy(p, body, sizeof(body));
}

static void write_fde(unsigned char *fde, uintptr_t pc, uintptr_t ret)
{
	unsigned char *p = put32(fde, FDE_SIZE - 4);

	p = put32(p, CIE_SIZE + 4);	/* back from this field to the CIE */
	p = put64(put64(p, pc), 2);
	*p++ = DW_CFA_def_cfa;
	*p++ = DW_REG_SP;
	*p++ = 0;
	*p++ = DW_CFA_val_expression;
	*p++ = DW_REG_RA;
	*p++ = 9;			/* the expression's length */
	*p++ = DW_OP_const8u;
	p = put64(p, ret);
	*p = DW_CFA_nop;
}

const void *arch_transparent_fde(void *buf, size_t size, uintptr_t pc, uintptr_t ret)
{
	unsigned char *cie = buf;

	if (size < CIE_SIZE + FDE_SIZE)
		return NULL;
	write_cie(cie);
	write_fde(cie + CIE_SIZE, pc, ret);
	return cie + CIE_SIZE;
}

/* gcc and clang save ra at the top of the frame; ftrace_caller keeps a
 * patchable entry's there too (entry.S). */
uintptr_t *arch_return_slot(uintptr_t cfa)
{
	return (uintptr_t *)cfa - 1;
}
