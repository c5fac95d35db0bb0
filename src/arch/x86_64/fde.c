// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: the DWARF numbers of the frame description src/core/fde_write.c
 * writes for an unwinder that meets return_to_handler: the stack pointer
 * is register 7 (rsp), the return address column 16 (rip), code
 * align 1.
 */
#include "../arch.h"

const struct arch_dwarf arch_dwarf = { .sp = 7, .ra = 16, .code_align = 1 };

uintptr_t *arch_return_slot(uintptr_t cfa)
{
	return (uintptr_t *)cfa - 1;
}
