/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qsort() for arrays that may be empty: qsort(NULL, 0, ...) is undefined
 * (its first argument is declared non-null), and an empty array is often
 * a NULL one.  Every sort in fntrace goes through this.  An array in
 * order already is left as it is: a table of call sites, and the batch
 * of patches made from it, mostly come in the text's order, and glibc's
 * merge sort would still make n log n indirect compares.
 */
#ifndef FNTRACE_SORT_H
#define FNTRACE_SORT_H

#include <stdlib.h>

static inline int in_order(const void *v, size_t n, size_t size,
			   int (*cmp)(const void *, const void *))
{
	for (size_t i = 1; i < n; i++)
		if (cmp((const char *)v + (i - 1) * size, (const char *)v + i * size) > 0)
			return 0;
	return 1;
}

static inline void sort_array(void *v, size_t n, size_t size,
			      int (*cmp)(const void *, const void *))
{
	if (n > 1 && !in_order(v, n, size, cmp))
		qsort(v, n, size, cmp);
}

#endif
