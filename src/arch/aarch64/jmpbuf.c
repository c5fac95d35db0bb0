// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64 glibc: the stack pointer saved in a jmp_buf.  setjmp
 * (sysdeps/aarch64/setjmp.S) stores sp, and x30, through PTR_MANGLE,
 * which on aarch64 (sysdeps/unix/sysv/linux/aarch64/pointer_guard.h) is a
 * plain xor with __pointer_chk_guard, no rotation.  That guard is a
 * GLIBC_PRIVATE variable of ld.so; its value is what ld.so took from the
 * kernel: the second 8 bytes of AT_RANDOM (_dl_setup_pointer_guard).
 * __jmpbuf is x19..x28, x29, x30, an unused word, sp, d8..d15.
 */
#include "../arch.h"

#include <string.h>
#include <sys/auxv.h>

#define JB_SP 13

static uintptr_t pointer_guard(void)
{
	const char *random = (const char *)getauxval(AT_RANDOM);
	uintptr_t guard = 0;

	if (random)
		memcpy(&guard, random + sizeof(guard), sizeof(guard));
	return guard;
}

uintptr_t arch_jmpbuf_sp(const void *env)
{
	return ((const uintptr_t *)env)[JB_SP] ^ pointer_guard();
}
