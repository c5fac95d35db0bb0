/* SPDX-License-Identifier: GPL-2.0 */
/*
 * a * b / c in 64-bit unsigned arithmetic, with the product kept whole:
 * the runtime converts clock ticks to nanoseconds this way.  Where the
 * compiler has a 128-bit integer (64-bit targets) it does the work; on a
 * 32-bit target (i386, mips) the product is built from 32-bit halves and
 * divided bit by bit.  A quotient that does not fit gives UINT64_MAX.
 */
#ifndef FNTRACE_MULDIV_H
#define FNTRACE_MULDIV_H

#include <stdint.h>

static inline uint64_t mul_div_u64_portable(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	uint64_t lo = mid << 32 | (uint32_t)p00;
	uint64_t hi = a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	uint64_t q = 0;

	if (hi >= c)
		return UINT64_MAX;
	/* Restoring division: hi is the remainder, lo's bits shift into it. */
	for (int i = 0; i < 64; i++) {
		uint64_t carry = hi >> 63;

		hi = hi << 1 | lo >> 63;
		lo <<= 1;
		q <<= 1;
		if (carry || hi >= c) {
			hi -= c;
			q |= 1;
		}
	}
	return q;
}

static inline uint64_t mul_div_u64(uint64_t a, uint64_t b, uint64_t c)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 q = (unsigned __int128)a * b / c;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
#else
	return mul_div_u64_portable(a, b, c);
#endif
}

#endif
