/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qsort() for arrays that may be empty: qsort(NULL, 0, ...) is undefined
 * (its first argument is declared non-null), and an empty array is often
 * a NULL one.  Every sort in fntrace goes through this.
 */
#ifndef FNTRACE_SORT_H
#define FNTRACE_SORT_H

#include <stdlib.h>

static inline void sort_array(void *v, size_t n, size_t size,
			      int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(v, n, size, cmp);
}

#endif
