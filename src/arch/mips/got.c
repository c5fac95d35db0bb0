// SPDX-License-Identifier: GPL-2.0
/*
 * mips: the relocations that bind a GOT slot to a function, for fntrace
 * attach's redirection of the program's calls to the runtime's wrappers
 * (src/core/interpose.c).  PIC code calls through the global GOT,
 * which no relocation describes (its slots follow DT_MIPS_GOTSYM, see
 * bind.c): only the PLT of a non-PIC executable is taken.
 */
#include "../arch.h"

#include <elf.h>

const unsigned arch_got_relocs[2] = { R_MIPS_JUMP_SLOT, 0 };
