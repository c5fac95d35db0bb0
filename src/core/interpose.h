/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wrappers reached without LD_PRELOAD (interpose.c): fntrace attach
 * points the program's calls to the wrapped functions, through every
 * module's GOT, at ours; back on detach.
 */
#ifndef FNTRACE_INTERPOSE_H
#define FNTRACE_INTERPOSE_H

/* libc's sigaction, past the runtime's wrapper (NULL if not found). */
struct sigaction;
typedef int (*ft_sigaction_fn)(int, const struct sigaction *, struct sigaction *);
ft_sigaction_fn ft_real_sigaction(void);
int ft_interpose_start(void);
/* Where ThreadSanitizer runs: its entry hook's callers call wrapper. */
int ft_interpose_tsan_entry(void (*wrapper)(void *pc));
void ft_interpose_refresh(void);
int ft_interpose_stop(void);
int ft_interposed(void);
/* Do the program's calls to name reach ours, the wrapper at own? */
int ft_wrapper_reached(const char *name, const void *own);

#endif
