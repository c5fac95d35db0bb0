// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of a function-graph tracer: two time stamps and a store per
 * call, nothing else.  bench/run.sh times it at two iteration counts and
 * takes the slope, as it does for the tracers.
 *
 * Usage: floor ITERATIONS
 *
 * Each iteration reads the TSC twice, as a tracer does at entry and at
 * exit, and stores both low halves into a small ring, as a tracer stores
 * its two 4-byte events; the ring stays in the cache, which a tracer's
 * buffer does not, so this is a floor, not an estimate.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#define RING_WORDS 4096		/* 16 KB */

static uint32_t ring[RING_WORDS];

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
	unsigned k = 0;
	uint32_t sum = 0;

	for (long i = 0; i < n; i++) {
		uint64_t entry = __rdtsc();
		uint64_t exit = __rdtsc();

		ring[k] = (uint32_t)entry;
		ring[k + 1] = (uint32_t)exit;
		k = (k + 2) & (RING_WORDS - 1);
	}
	for (unsigned i = 0; i < RING_WORDS; i++)
		sum |= ring[i];
	/* The same line every run (the bench compares outputs); the sum
	 * keeps the stores from being optimized away. */
	printf("floor %ld iterations%s\n", n, sum == 1 ? "." : "");
	return 0;
}
