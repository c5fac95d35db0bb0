// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 glibc: the stack pointer saved in a jmp_buf.  glibc mangles it:
 * xor with the thread's pointer guard (in the TCB at %fs:0x30), then
 * rotate left by 17 bits.  __jmpbuf is rbx, rbp, r12..r15, rsp, pc.
 */
#include "../arch.h"

#define JB_RSP 6

uintptr_t arch_jmpbuf_sp(const void *env)
{
	uintptr_t v = ((const uintptr_t *)env)[JB_RSP], guard;

	__asm__("mov %%fs:0x30, %0" : "=r"(guard));
	v = v >> 17 | v << (64 - 17);
	return v ^ guard;
}
