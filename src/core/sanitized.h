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
/* And once the runtime's lock is taken: the hooks of the sanitizer that
 * the runtime wraps. */
void ft_sanitized_hooks(void);

#include <pthread.h>
/* The runtime's mutexes: invisible to ThreadSanitizer (no order between
 * the program's threads).  Plain pthread_mutex_lock() elsewhere. */
void ft_mutex_lock(pthread_mutex_t *m);
void ft_mutex_unlock(pthread_mutex_t *m);
/* The calling thread hidden from ThreadSanitizer for the rest of its
 * life: the control thread's, which never ends. */
void ft_sanitized_thread_ignored(void);

#endif
