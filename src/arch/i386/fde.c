// SPDX-License-Identifier: GPL-2.0
/*
 * i386: the DWARF numbers of the frame description src/core/fde_write.c
 * writes for an unwinder that meets return_to_handler: the stack pointer
 * is register 4 (esp), the return address column 8 (eip), code
 * align 1.
 */
#include "../arch.h"

const struct arch_dwarf arch_dwarf = { .sp = 4, .ra = 8, .code_align = 1 };

uintptr_t *arch_return_slot(uintptr_t cfa)
{
	return (uintptr_t *)cfa - 1;
}
