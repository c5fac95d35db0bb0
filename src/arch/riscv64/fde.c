// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64: the DWARF numbers of the frame description src/core/fde_write.c
 * writes for an unwinder that meets return_to_handler: the stack pointer
 * is register 2 (sp), the return address column 1 (ra), code
 * align 1.
 */
#include "../arch.h"

const struct arch_dwarf arch_dwarf = { .sp = 2, .ra = 1, .code_align = 1 };

/* gcc and clang save ra at the top of the frame; ftrace_caller keeps a
 * patchable entry's there too (entry.S). */
uintptr_t *arch_return_slot(uintptr_t cfa)
{
	return (uintptr_t *)cfa - 1;
}
