/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the detour tests (test_detour_*.c): code from hex, one
 * function planned alone, a trampoline's copy compared byte for byte.
 */
#ifndef FNTRACE_DETOUR_FIXTURE_H
#define FNTRACE_DETOUR_FIXTURE_H

#include "unit.h"
#include "detour/detour.h"

#include <stdio.h>
#include <string.h>

/* The bytes written as hex in s ("e8 00 10 00 00"): how many. */
static inline size_t hex_bytes(const char *s, uint8_t *out)
{
	size_t n = 0;
	unsigned b;
	int used;

	while (sscanf(s, " %2x%n", &b, &used) == 1) {
		out[n++] = b;
		s += used;
	}
	return n;
}

/* Words, little-endian, as an aarch64 image holds them. */
static inline size_t words_bytes(const uint32_t *w, size_t n, uint8_t *out)
{
	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < 4; b++)
			out[4 * i + b] = w[i] >> (8 * b);
	return 4 * n;
}

/* The function of size bytes at func, planned alone (with its own
 * branch targets only): its plan. */
static inline struct detour_plan plan_one(struct detour_dec *d, const uint8_t *code,
					  uint64_t func, uint64_t size)
{
	struct detour_plan p = { .func = func, .size = size, .name = "f" };
	struct detour_targets t = { 0 };

	detour_scan(d, code, &p, &t);
	detour_targets_sort(&t);
	detour_check(&t, &p);
	detour_targets_free(&t);
	return p;
}

/* Does the copy of len bytes of code (at start) for tramp hold exactly
 * the bytes want?  Says what it got, if not. */
static inline int copy_is(struct detour_dec *d, const uint8_t *code, uint64_t start, unsigned len,
			  uint64_t tramp, const uint8_t *want, size_t nwant)
{
	uint8_t out[128];
	int n = detour_copy(d, code, start, len, tramp, out, sizeof(out));

	if (n == (int)nwant && !memcmp(out, want, nwant))
		return 1;
	printf("  got %d:", n);
	for (int i = 0; i < n; i++)
		printf(" %02x", out[i]);
	printf("\n");
	return 0;
}

#endif
