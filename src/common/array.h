/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arrays that grow by doubling, so that appending one element at a time
 * costs O(1) on average.  The runtime uses it too: it only allocates.
 */
#ifndef FNTRACE_ARRAY_H
#define FNTRACE_ARRAY_H

#include <stddef.h>

/* Room for at least need elements of elem bytes in *v, which holds *cap:
 * doubled until it fits (from 16), the new elements zeroed.  -1 if out
 * of memory, with *v and *cap as they were. */
int grow_array(void **v, size_t *cap, size_t need, size_t elem);

#endif
