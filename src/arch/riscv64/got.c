// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64: the relocations that bind a GOT slot to a function, for fntrace
 * attach's redirection of the program's calls to the runtime's wrappers
 * (src/core/interpose.c).  A plain GOT slot is bound by
 * R_RISCV_64, which data words share: only the PLT's are taken.
 */
#include "../arch.h"

#include <elf.h>

const unsigned arch_got_relocs[2] = { R_RISCV_JUMP_SLOT, 0 };
