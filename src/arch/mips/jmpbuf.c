// SPDX-License-Identifier: GPL-2.0
/*
 * mips o32 glibc: the stack pointer saved in a jmp_buf.  glibc has no
 * pointer guard on mips: __jmpbuf holds pc, sp, s0..s7, fp, gp, ... as
 * they are (checked under qemu-mips: the word after the pc is the
 * caller's sp).
 */
#include "../arch.h"

#define JB_SP 1

uintptr_t arch_jmpbuf_sp(const void *env)
{
	return ((const uintptr_t *)env)[JB_SP];
}
