/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the runtime came into the process: preloaded (libfntrace.so, by
 * LD_PRELOAD or fntrace attach) or linked in (libfntrace.a, by fntrace
 * cc -static).  Each build has one of link_preload.c and link_static.c
 * behind these; nothing else in the runtime knows which.
 */
#ifndef FNTRACE_LINKAGE_H
#define FNTRACE_LINKAGE_H

#include <stdint.h>

/* The definition of name a wrapper of ours stands in front of (NULL if
 * the program has none). */
void *ft_real(const char *name);
/* A function of the program's, by name, that is not one we wrap
 * (__cxa_demangle); NULL if it has none. */
void *ft_program_symbol(const char *name);
/* Where libfntrace.so lies (its ELF header); 0 when linked in. */
uintptr_t ft_own_base(void);
/* Is addr in libfntrace.so?  (Never when linked in.)  Takes the loader's
 * lock: not inside dl_iterate_phdr. */
int ft_in_own_library(const void *addr);
/* Is [lo, hi) the runtime's own image, which has no call sites?  Linked
 * in, the runtime shares the program's, which has. */
int ft_own_image(uintptr_t lo, uintptr_t hi);
/* Did the runtime come with the program, before its first thread
 * (preloaded at start, or linked in), rather than by fntrace attach? */
int ft_came_with_program(void);
/* Should the runtime start?  Preloaded, always: fntrace loaded it.
 * Linked in, only when fntrace runs the program (a recorder's shared
 * memory or a control endpoint asked for): otherwise the runtime stays
 * dormant and every wrapper is the function it wraps.  Asked once, at
 * start-up. */
int ft_runtime_wanted(void);

#endif
