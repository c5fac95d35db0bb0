// SPDX-License-Identifier: GPL-2.0
/*
 * mips: the DWARF numbers of the frame description src/core/fde_write.c
 * writes for an unwinder that meets return_to_handler: the stack pointer
 * is register 29 (sp), the return address column 31 (ra), code
 * align 1.
 */
#include "../arch.h"

const struct arch_dwarf arch_dwarf = { .sp = 29, .ra = 31, .code_align = 1 };
