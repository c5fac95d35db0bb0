// SPDX-License-Identifier: GPL-2.0
/*
 * mul_div_u64 without __int128 (the 32-bit runtimes' path) against the
 * 128-bit arithmetic of the host, on edge values and a pseudo-random
 * sweep, and its saturation.
 */
#include "unit.h"
#include "../../src/common/muldiv.h"

static uint64_t exact(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 q = (unsigned __int128)a * b / c;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(void)
{
	static const uint64_t edge[] = { 0, 1, 2, 3, 999, 1000, 0xffffffffull, 0x100000000ull,
					 0x123456789abcdefull, UINT64_MAX / 2, UINT64_MAX - 1,
					 UINT64_MAX };
	const unsigned n = sizeof(edge) / sizeof(edge[0]);
	unsigned bad = 0;
	uint64_t s = 88172645463325252ull;

	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++)
			for (unsigned k = 0; k < n; k++)
				if (edge[k] && mul_div_u64_portable(edge[i], edge[j], edge[k]) !=
					       exact(edge[i], edge[j], edge[k]))
					bad++;
	CHECK("edge values: as with 128-bit integers", bad == 0);
	bad = 0;
	for (unsigned i = 0; i < 200000; i++) {
		uint64_t a = next(&s) >> (next(&s) & 63), b = next(&s) >> (next(&s) & 63);
		uint64_t c = (next(&s) >> (next(&s) & 63)) | 1;

		bad += mul_div_u64_portable(a, b, c) != exact(a, b, c);
	}
	CHECK("random values: as with 128-bit integers", bad == 0);
	CHECK("ticks to ns: 3e9 ticks at 1/3 ns each",
	      mul_div_u64_portable(3000000000ull, 1000000000ull, 3000000000ull) == 1000000000ull);
	CHECK("too large a quotient saturates",
	      mul_div_u64_portable(UINT64_MAX, UINT64_MAX, 1) == UINT64_MAX);
	return unit_done();
}
