// SPDX-License-Identifier: GPL-2.0
/*
 * sort_array(): a natural merge sort for arrays of few sorted runs, and
 * qsort() for the rest (sort.h says why).  Two adjacent runs are merged
 * through a buffer the size of the smaller: the left one copied out and
 * merged forward, or the right one copied out and merged backward, so
 * that a run of three functions put in front of 100 000 costs a buffer
 * of three.  Ties keep their order, as in a stable sort.
 */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

/* More runs than this, and the data is not "mostly in order". */
#define MAX_RUNS 64

typedef int (*cmp_fn)(const void *, const void *);

struct runs {
	char *v;
	size_t size;
	cmp_fn cmp;
};

static char *at(const struct runs *r, size_t i)
{
	return r->v + i * r->size;
}

/* The end of the run that starts at lo. */
static size_t run_end(const struct runs *r, size_t lo, size_t n)
{
	size_t i = lo + 1;

	while (i < n && r->cmp(at(r, i - 1), at(r, i)) <= 0)
		i++;
	return i;
}

static size_t count_runs(const struct runs *r, size_t n)
{
	size_t runs = 0;

	for (size_t lo = 0; lo < n && runs <= MAX_RUNS; lo = run_end(r, lo, n))
		runs++;
	return runs;
}

/* [lo, mid) copied out to buf, merged forward with [mid, hi). */
static void merge_forward(const struct runs *r, char *buf, size_t lo, size_t mid, size_t hi)
{
	size_t nl = mid - lo, i = 0, j = mid, out = lo;

	memcpy(buf, at(r, lo), nl * r->size);
	while (i < nl && j < hi) {
		const char *left = buf + i * r->size;

		if (r->cmp(at(r, j), left) < 0) {
			memcpy(at(r, out++), at(r, j++), r->size);
		} else {
			memcpy(at(r, out++), left, r->size);
			i++;
		}
	}
	memcpy(at(r, out), buf + i * r->size, (nl - i) * r->size);
}

/* [mid, hi) copied out to buf, merged backward with [lo, mid). */
static void merge_backward(const struct runs *r, char *buf, size_t lo, size_t mid, size_t hi)
{
	size_t nr = hi - mid, i = mid, j = nr, out = hi;

	memcpy(buf, at(r, mid), nr * r->size);
	while (i > lo && j > 0) {
		const char *right = buf + (j - 1) * r->size;

		if (r->cmp(right, at(r, i - 1)) < 0) {
			memcpy(at(r, --out), at(r, --i), r->size);
		} else {
			memcpy(at(r, --out), right, r->size);
			j--;
		}
	}
	memcpy(at(r, lo), buf, j * r->size);
}

static int merge(const struct runs *r, size_t lo, size_t mid, size_t hi)
{
	size_t smaller = mid - lo < hi - mid ? mid - lo : hi - mid;
	char *buf = malloc(smaller * r->size);

	if (!buf)
		return -1;
	if (smaller == mid - lo)
		merge_forward(r, buf, lo, mid, hi);
	else
		merge_backward(r, buf, lo, mid, hi);
	free(buf);
	return 0;
}

/* Adjacent runs merged in pairs, pass after pass, until one is left. */
static int merge_runs(const struct runs *r, size_t n)
{
	for (;;) {
		size_t lo = 0, merged = 0;

		while (lo < n) {
			size_t mid = run_end(r, lo, n), hi;

			if (mid == n)
				break;
			hi = run_end(r, mid, n);
			if (merge(r, lo, mid, hi))
				return -1;
			merged++;
			lo = hi;
		}
		if (!merged)
			return 0;
	}
}

void sort_array(void *v, size_t n, size_t size, cmp_fn cmp)
{
	struct runs r = { v, size, cmp };
	size_t runs = n > 1 ? count_runs(&r, n) : 1;

	if (runs == 1)
		return;
	if (runs > MAX_RUNS || merge_runs(&r, n))
		qsort(v, n, size, cmp);
}
