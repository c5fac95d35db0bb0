/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime's own work on a program's thread, bracketed for record -e
 * (own_work.c): its system calls between begin and end are fntrace's.
 */
#ifndef FNTRACE_OWN_WORK_H
#define FNTRACE_OWN_WORK_H

#include <stdint.h>

/* Now, for the end to say where the work began; 0 (nothing to say at
 * the end) unless a recorder of the kernel's events wants it.  The
 * start-up, which attaches the buffer halfway, reads the clock itself. */
uint64_t ft_own_work_begin(void);
/* The work from `from` until now, said in the buffer if there is one
 * and a recorder of the kernel's events wants it. */
void ft_own_work_end(uint64_t from);
/* The same, of a thread's own share (its ids known: no system call to
 * ask), in a ring of its own: many threads' do not push out a start-up's. */
void ft_own_work_end_of(uint32_t pid, uint32_t tid, uint64_t from);
/* A thread's own share whose ids are asked (an exec's, maybe in a
 * vfork() child). */
void ft_own_share_end(uint64_t from);

#endif
