// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64: the DWARF numbers of the frame description src/core/fde_write.c
 * writes for an unwinder that meets return_to_handler: the stack pointer
 * is register 31 (sp), the return address column 30 (x30), code
 * align 4.
 */
#include "../arch.h"

const struct arch_dwarf arch_dwarf = { .sp = 31, .ra = 30, .code_align = 4 };

/*
 * A frame keeps x30 in its frame record, which may be anywhere in the
 * frame: gcc puts it at the bottom, clang at the top, and a patchable
 * entry's slot is the one ftrace_caller made at CFA - 8.  So the graph
 * tracer's key is the last word of the frame, at or above the slot
 * (ARCH_RETURN_SLOT_FLOATS, in arch.mk), the one return_to_handler passes
 * too.  As a stack address it stays below the caller's stack pointer,
 * which is what a jump's wrapper compares it with.
 */
uintptr_t *arch_return_slot(uintptr_t cfa)
{
	return (uintptr_t *)cfa - 1;
}
