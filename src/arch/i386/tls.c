// SPDX-License-Identifier: GPL-2.0
/*
 * i386: clone()'s tls argument is a struct user_desc, the segment %gs
 * selects; the thread pointer is its base.
 */
#include "../arch.h"

#include <asm/ldt.h>

uintptr_t arch_clone_thread_pointer(const void *tls)
{
	return ((const struct user_desc *)tls)->base_addr;
}
