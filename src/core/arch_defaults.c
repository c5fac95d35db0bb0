// SPDX-License-Identifier: GPL-2.0
/*
 * The optional parts of the arch contract (src/arch/arch.h), as weak
 * definitions an architecture overrides by defining its own.  They live
 * in a file of their own: a compiler that sees a weak definition where it
 * is used may inline it, and the architecture's would never be called.
 */
#include "ftrace.h"

/* Every live patch takes the breakpoint protocol. */
__attribute__((weak)) int arch_can_poke_live(uintptr_t addr, const uint8_t *old,
					      const uint8_t *new, unsigned len)
{
	return 0;
}

/* An enabled site goes through nothing a module must prepare. */
__attribute__((weak)) void arch_module_prepare(uintptr_t bias)
{
}

/* The CPU is what it says: membarrier reaches every thread's code. */
__attribute__((weak)) int arch_cpu_emulated(void)
{
	return 0;
}

/* No return sites: the graph tracer takes every return address. */
__attribute__((weak)) int arch_has_return_sites(void)
{
	return 0;
}

/* Never asked where there are no return sites; "a tail call" would be
 * the safe answer (src/core/returns.c). */
__attribute__((weak)) int arch_insn_is_return(const uint8_t *insn)
{
	return 0;
}

/* No argument registers handed over: -A and -R are refused. */
__attribute__((weak)) const struct arch_arg_regs arch_arg_regs;

__attribute__((weak)) void arch_fp_args(uint64_t *out)
{
}

__attribute__((weak)) uint64_t arch_fp_retval(void)
{
	return 0;
}

/* clone()'s tls argument is the thread pointer itself. */
__attribute__((weak)) uintptr_t arch_clone_thread_pointer(const void *tls)
{
	return (uintptr_t)tls;
}
