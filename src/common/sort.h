/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qsort() for arrays that may be empty: qsort(NULL, 0, ...) is undefined
 * (its first argument is declared non-null), and an empty array is often
 * a NULL one.  Every sort in fntrace goes through this.
 *
 * The large arrays sorted are mostly in order already: a table of call
 * sites, the batch of patches made from it, a module's return sites,
 * which come in the order of its object files while the linker placed
 * some functions (main, in .text.startup) elsewhere.  An array in order
 * is left as it is, and one of a few sorted runs is merged, run by run;
 * glibc's merge sort would make n log n indirect compares and allocate
 * a copy of the whole array (2.5 ms for 100 000 return sites).
 */
#ifndef FNTRACE_SORT_H
#define FNTRACE_SORT_H

#include <stddef.h>

void sort_array(void *v, size_t n, size_t size,
		int (*cmp)(const void *, const void *));

#endif
