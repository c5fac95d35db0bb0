// SPDX-License-Identifier: GPL-2.0
/*
 * i386: the runtime's 64-bit atomics.  With -mgeneral-regs-only gcc
 * cannot inline them (its 8-byte atomic load and store go through the
 * x87 or SSE registers) and calls libatomic's __atomic_*_8 instead.
 * libatomic is not always installed for 32-bit programs, and its load
 * would use the x87 stack the runtime must leave alone, so these are
 * the runtime's own, hidden, all built on "lock cmpxchg8b", which every
 * i686 has.
 */
#include "cmpxchg8b.h"

/* Until an exchange finds what it expected; a torn first read of the two
 * halves only costs one more round. */
static uint64_t update(volatile uint64_t *p, uint64_t add, int replace)
{
	uint64_t old = *p, seen;

	while ((seen = cmpxchg8b(p, old, replace ? add : old + add)) != old)
		old = seen;
	return old;
}

uint64_t ft_atomic_load_8(volatile uint64_t *p, int model) __asm__("__atomic_load_8");
uint64_t ft_atomic_load_8(volatile uint64_t *p, int model)
{
	return cmpxchg8b(p, 0, 0);
}

/* A store is an exchange whose old value nobody wants: two plain 32-bit
 * stores could be seen half done. */
void ft_atomic_store_8(volatile uint64_t *p, uint64_t v, int model) __asm__("__atomic_store_8");
void ft_atomic_store_8(volatile uint64_t *p, uint64_t v, int model)
{
	update(p, v, 1);
}

uint64_t ft_atomic_exchange_8(volatile uint64_t *p, uint64_t v, int model)
	__asm__("__atomic_exchange_8");
uint64_t ft_atomic_exchange_8(volatile uint64_t *p, uint64_t v, int model)
{
	return update(p, v, 1);
}

uint64_t ft_atomic_fetch_add_8(volatile uint64_t *p, uint64_t v, int model)
	__asm__("__atomic_fetch_add_8");
uint64_t ft_atomic_fetch_add_8(volatile uint64_t *p, uint64_t v, int model)
{
	return update(p, v, 0);
}

_Bool ft_atomic_compare_exchange_8(volatile uint64_t *p, uint64_t *expected, uint64_t v,
				   int success, int failure) __asm__("__atomic_compare_exchange_8");
_Bool ft_atomic_compare_exchange_8(volatile uint64_t *p, uint64_t *expected, uint64_t v,
				   int success, int failure)
{
	uint64_t seen = cmpxchg8b(p, *expected, v);

	if (seen == *expected)
		return 1;
	*expected = seen;
	return 0;
}
