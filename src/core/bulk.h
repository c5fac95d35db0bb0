/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mappings for the runtime's large arrays (bulk.c): zeroed, on huge pages
 * where the kernel gives them; with fill, faulted in at once, for an
 * array that is about to be filled whole.  NULL if out of memory.
 */
#ifndef FNTRACE_BULK_H
#define FNTRACE_BULK_H

#include <stddef.h>

void *ft_bulk_map(size_t size, int fill);
void ft_bulk_unmap(void *p, size_t size);

#endif
