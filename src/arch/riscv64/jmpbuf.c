// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64 glibc: the stack pointer saved in a jmp_buf.  __jmpbuf is pc,
 * s0..s11, sp, then fs0..fs11; glibc's riscv setjmp stores sp as it is,
 * with no pointer guard (riscv defines no PTR_MANGLE), as a setjmp under
 * qemu shows: env[13] is the sp of the frame that called it.
 */
#include "../arch.h"

#define JB_SP 13

uintptr_t arch_jmpbuf_sp(const void *env)
{
	return ((const uintptr_t *)env)[JB_SP];
}
