/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mappings for large arrays (bulk.c): zeroed, on huge pages where the
 * kernel gives them; with fill, faulted in at once, for an array that is
 * about to be filled whole.  NULL if out of memory.
 */
#ifndef FNTRACE_BULK_H
#define FNTRACE_BULK_H

#include <stddef.h>

void *bulk_map(size_t size, int fill);
void bulk_unmap(void *p, size_t size);

/* The same for an array whose owner does not keep its size: malloc(),
 * realloc() and free() for arrays of megabytes, which malloc would give
 * page by page.  bulk_free(NULL) does nothing. */
void *bulk_alloc(size_t size);
void *bulk_realloc(void *p, size_t size);
void bulk_free(void *p);

#endif
