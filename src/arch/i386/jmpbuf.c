// SPDX-License-Identifier: GPL-2.0
/*
 * i386 glibc: the stack pointer saved in a jmp_buf.  glibc mangles it
 * (PTR_MANGLE): xor with the thread's pointer guard (in the TCB, at
 * %gs:0x18), then rotate left by 9 bits.  __jmpbuf is ebx, esi, edi, ebp,
 * esp, pc.
 */
#include "../arch.h"

#define JB_SP 4

uintptr_t arch_jmpbuf_sp(const void *env)
{
	uintptr_t v = ((const uintptr_t *)env)[JB_SP], guard;

	__asm__("movl %%gs:0x18, %0" : "=r"(guard));
	v = v >> 9 | v << (32 - 9);
	return v ^ guard;
}
