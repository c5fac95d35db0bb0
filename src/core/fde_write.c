// SPDX-License-Identifier: GPL-2.0
/*
 * The frame description of a return to return_to_handler that an
 * unwinder is to step through as if it were not there (unwind_fde.c).  A
 * CIE and its FDE, as in .eh_frame, with the architecture's DWARF
 * numbers (arch_dwarf) and pointers of our size, W bytes:
 *
 *   CIE  version 1, no augmentation (pointers absolute, W bytes),
 *        code align, data align -W, return address column
 *   FDE  [pc, pc + 2)
 *        DW_CFA_def_cfa sp, W            a frame of its own ...
 *        DW_CFA_val_offset sp, 1         ... and yet the caller's stack
 *                                        pointer is ours: CFA - W
 *        DW_CFA_val_expression ra,       the return address is ret
 *            DW_OP_const<W>u ret
 *
 * Every other register is left unsaved: it has its value in the caller.
 *
 * Why not simply a CFA of sp + 0: libgcc knows a frame by the CFA of
 * the frame it called (uw_identify_context), and an exception's second
 * phase installs the handler in the first frame known as the first
 * phase found it.  With sp + 0 this frame would be known as the one it
 * called is, and as its caller, the handler, is: an exception whose
 * handler is the caller of a hijacked frame (its return address not put
 * back, where the slot floats: aarch64's patchable entries) would stop
 * here, in a frame with no personality, and abort.
 *
 * Why one word and no more: glibc's cancellation (nptl's unwind_stop)
 * longjmps to the thread's start once the CFA it is shown, that of the
 * frame below, is no longer below the stack pointer start_thread saved.
 * The caller's own CFA, 16-byte aligned, is at least 16 bytes above the
 * stack pointer S we return to: a CFA of S + 2W could reach it and end
 * the unwinding before the caller's cleanups ran (a caller whose frame
 * is its return address and 8 bytes of padding, called by start_thread);
 * S + W stays below it, as the S an untraced unwinder shows does.
 */
#include "ftrace.h"

#include <string.h>

enum {
	DW_CFA_nop = 0x00,
	DW_CFA_def_cfa = 0x0c,
	DW_CFA_val_offset = 0x14,
	DW_CFA_val_expression = 0x16,
	DW_OP_const4u = 0x0c,
	DW_OP_const8u = 0x0e,
	W = sizeof(uintptr_t),
	CIE_SIZE = 16,				/* length word included */
	FDE_SIZE = 4 + 4 + 2 * W + 3 + 3 + 3 + 1 + W + 1,
};

static unsigned char *put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
	return p + 4;
}

static unsigned char *put_ptr(unsigned char *p, uintptr_t v)
{
	memcpy(p, &v, W);
	return p + W;
}

static void write_cie(unsigned char *cie)
{
	unsigned char *p = put32(put32(cie, CIE_SIZE - 4), 0);

	*p++ = 1;				/* version */
	*p++ = 0;				/* augmentation "" */
	*p++ = arch_dwarf.code_align;
	*p++ = (unsigned char)(-(int)W & 0x7f);	/* data align -W, sleb128 */
	*p++ = arch_dwarf.ra;
	memset(p, DW_CFA_nop, cie + CIE_SIZE - p);
}

static void write_fde(unsigned char *fde, uintptr_t pc, uintptr_t ret)
{
	unsigned char *p = put32(fde, FDE_SIZE - 4);

	p = put32(p, CIE_SIZE + 4);		/* back from this field to the CIE */
	p = put_ptr(put_ptr(p, pc), 2);
	*p++ = DW_CFA_def_cfa;
	*p++ = arch_dwarf.sp;
	*p++ = W;				/* uleb128 */
	*p++ = DW_CFA_val_offset;
	*p++ = arch_dwarf.sp;
	*p++ = 1;				/* factored by data align -W */
	*p++ = DW_CFA_val_expression;
	*p++ = arch_dwarf.ra;
	*p++ = 1 + W;				/* the expression's length */
	*p++ = W == 8 ? DW_OP_const8u : DW_OP_const4u;
	p = put_ptr(p, ret);
	*p = DW_CFA_nop;
}

const void *ftrace_transparent_fde(void *buf, size_t size, uintptr_t pc, uintptr_t ret)
{
	unsigned char *cie = buf;

	if (size < CIE_SIZE + FDE_SIZE)
		return NULL;
	write_cie(cie);
	write_fde(cie + CIE_SIZE, pc, ret);
	return cie + CIE_SIZE;
}
