/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime in a process a sanitizer watches (sanitized.c).
 */
#ifndef FNTRACE_SANITIZED_H
#define FNTRACE_SANITIZED_H

/* Set while LeakSanitizer will read the stacks: the hooks zero what they
 * save there (src/arch/x86_64/entry.S). */
extern int ft_scrub_spills;
/* Set in a process ThreadSanitizer watches. */
extern int ft_sanitized_tsan;
void ft_sanitized_start(void);

#endif
