// SPDX-License-Identifier: GPL-2.0
/*
 * Arrays that grow by doubling (array.h).
 */
#include "array.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int grow_array(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need && n <= SIZE_MAX / 2)
		n *= 2;
	/* Too many to count in bytes: as out of memory as it gets. */
	if (n < need || n > SIZE_MAX / elem) {
		errno = ENOMEM;
		return -1;
	}
	p = realloc(*v, n * elem);
	if (!p)
		return -1;
	/* An array indexed by id has gaps: a slot never set reads as zero. */
	memset((char *)p + *cap * elem, 0, (n - *cap) * elem);
	*v = p;
	*cap = n;
	return 0;
}
