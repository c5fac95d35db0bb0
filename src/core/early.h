/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calls made before the runtime has seen their module (early.c): a -pg
 * site that still calls mcount.
 */
#ifndef FNTRACE_EARLY_H
#define FNTRACE_EARLY_H

#include <stdint.h>

/* The start-up is done: only a thread inside dlopen() keeps mcount slow. */
void ft_early_started(void);
/* Around the real dlopen: its constructors' calls to mcount read it. */
void ft_early_dlopen_enter(void);
void ft_early_dlopen_leave(void);
/* A site's call to mcount while ft_mcount_slow is up: where to go on. */
uintptr_t ft_mcount_early(uintptr_t ret);

#endif
