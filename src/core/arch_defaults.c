// SPDX-License-Identifier: GPL-2.0
/*
 * The optional parts of the arch contract (src/arch/arch.h), as weak
 * definitions an architecture overrides by defining its own.  They live
 * in a file of their own: a compiler that sees a weak constant where it
 * is used may fold it, and the architecture's would never be read.
 */
#include "ftrace.h"

/* Every live patch takes the breakpoint protocol. */
__attribute__((weak)) int arch_can_poke_live(uintptr_t addr, const uint8_t *old,
					      const uint8_t *new, unsigned len)
{
	return 0;
}

/* The CPU is what it says: membarrier reaches every thread's code. */
__attribute__((weak)) int arch_cpu_emulated(void)
{
	return 0;
}

/* A frame keeps its return address at arch_return_slot(cfa). */
__attribute__((weak)) const int arch_return_slot_floats = 0;
