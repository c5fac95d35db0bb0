/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime's own memory, accounted so that the program's address-space
 * limit (RLIMIT_AS) bites no earlier than it would without fntrace.
 */
#ifndef FNTRACE_LIMITS_H
#define FNTRACE_LIMITS_H

#include <stddef.h>

/* Around start-up: the limit lifted to its hard value meanwhile, then set
 * to the program's own plus what start-up mapped (measured). */
void ft_limits_startup_begin(void);
void ft_limits_startup_end(void);
/* The runtime is about to map bytes more of its own (the trace buffer,
 * thread states): the limit grows by as much. */
void ft_limits_grow(size_t bytes);

#endif
