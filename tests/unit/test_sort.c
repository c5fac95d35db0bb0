// SPDX-License-Identifier: GPL-2.0
/*
 * sort_array against a plain insertion sort: arrays in order, of a few
 * sorted runs (the merge), of many (qsort), with runs of one element
 * and ties.  The merge keeps the order of ties, as a stable sort does;
 * qsort() need not, so there only the keys are compared.
 */
#include "unit.h"
#include "../../src/common/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct item {
	uint32_t key;
	uint32_t seq;		/* position before the sort: ties keep it */
};

static int by_key(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static uint32_t next(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void reference(struct item *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct item x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1].key > x.key; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* runs sorted runs of random lengths, keys drawn from [0, range). */
static size_t fill(struct item *v, size_t n, unsigned runs, uint32_t range, uint32_t *seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (struct item){ next(seed) % range, (uint32_t)i };
	for (unsigned r = 0; r < runs; r++) {
		size_t lo = (size_t)r * n / runs, hi = (size_t)(r + 1) * n / runs;

		reference(v + lo, hi - lo);
	}
	for (size_t i = 0; i < n; i++)
		v[i].seq = (uint32_t)i;
	return n;
}

static int same_keys(const struct item *a, const struct item *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].key != b[i].key)
			return 0;
	return 1;
}

static int sorts_like_reference(size_t n, unsigned runs, uint32_t range, uint32_t seed)
{
	struct item *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	int same;

	fill(a, n, runs, range, &seed);
	memcpy(b, a, n * sizeof(*a));
	sort_array(a, n, sizeof(*a), by_key);
	reference(b, n);
	same = runs <= 64 ? !memcmp(a, b, n * sizeof(*a)) : same_keys(a, b, n);
	free(a);
	free(b);
	return same;
}

int main(void)
{
	static const unsigned runs[] = { 1, 2, 3, 7, 64, 65, 500 };
	struct item one = { 5, 0 };
	uint32_t seed = 1;

	sort_array(NULL, 0, sizeof(one), by_key);
	sort_array(&one, 1, sizeof(one), by_key);
	CHECK("sort: empty and one-element arrays", one.key == 5);
	for (unsigned i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char name[80];
		int good = 1;

		for (unsigned round = 0; round < 20; round++) {
			size_t n = 1 + next(&seed) % 3000;

			good &= sorts_like_reference(n, runs[i] < n ? runs[i] : 1, 1000, seed);
			good &= sorts_like_reference(n, runs[i] < n ? runs[i] : 1, 4, seed + 1);
		}
		snprintf(name, sizeof(name), "sort: %u runs, as an insertion sort%s",
			 runs[i], runs[i] <= 64 ? ", ties in order" : "");
		CHECK(name, good);
	}
	{
		/* A short run in front of a long one, and the reverse. */
		int good = 1;

		for (unsigned k = 1; k < 6; k++) {
			good &= sorts_like_reference(10000, 2, 100000, k);
			good &= sorts_like_reference(7, 2, 3, k);
		}
		CHECK("sort: two runs of any lengths", good);
	}
	return unit_done();
}
