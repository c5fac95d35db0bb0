/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i386: "lock cmpxchg8b", which every i686 has: the one 8-byte atomic the
 * runtime's code builds on (atomic8.c, trap.c).
 */
#ifndef FNTRACE_I386_CMPXCHG8B_H
#define FNTRACE_I386_CMPXCHG8B_H

#include <stdint.h>

/* If *p is old, it becomes new; returns what *p was. */
static inline uint64_t cmpxchg8b(volatile uint64_t *p, uint64_t old, uint64_t new)
{
	__asm__ volatile("lock cmpxchg8b %1"
			 : "+A"(old), "+m"(*p)
			 : "b"((uint32_t)new), "c"((uint32_t)(new >> 32))
			 : "memory", "cc");
	return old;
}

#endif
