/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Threads that run on one thread-local storage (clone() without
 * CLONE_SETTLS): untraced while they may, counted (shared_tls.c).
 */
#ifndef FNTRACE_SHARED_TLS_H
#define FNTRACE_SHARED_TLS_H

/* Is this storage shared (or foreign) now?  No state may be made. */
int ft_tls_shared(void);
/* Before a clone() that shares it; after the child is done with it. */
void ft_tls_share_begin(void);
void ft_tls_share_end(void);
/* 1 if nobody shares it any more (the thread's state is back), else 0. */
int ft_tls_share_over(void);
/* A hook found no state: its events counted lost if the storage is shared. */
void ft_tls_untraced(unsigned events);
/* In a child whose TLS block is a copy the program made: never traced. */
void ft_tls_foreign(void);
/* Such a thread's function has returned: its count goes to the total. */
void ft_tls_foreign_end(void);
void ft_tls_share_after_fork(void);

#endif
