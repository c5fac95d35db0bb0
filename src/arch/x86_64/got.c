// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: the relocations that bind a GOT slot to a function, for fntrace
 * attach's redirection of the program's calls to the runtime's wrappers
 * (src/core/interpose.c).
 */
#include "../arch.h"

#include <elf.h>

const unsigned arch_got_relocs[2] = { R_X86_64_JUMP_SLOT, R_X86_64_GLOB_DAT };
