/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every thread's state (thread.c): made at a thread's first traced call,
 * kept in a registry, given back at its exit.  The state itself, and the
 * hooks' inline access to it: events.h.
 */
#ifndef FNTRACE_THREAD_H
#define FNTRACE_THREAD_H

#include <stdint.h>

struct ft_context;
struct ft_thread;

/* The thread's state; NULL until its first traced call. */
extern __thread struct ft_thread *ft_current;
/* Where the CPU the thread runs on is, from the thread pointer: the rseq
 * area's cpu_id, which the kernel keeps current, or without rseq a word
 * of ~0 of each thread's own.  Set once, before any thread state. */
extern long ft_cpu_offset;

/* A thread-local word of the runtime's TLS image, and where it lies from
 * the thread pointer: a TLS block the program made for a clone() child
 * has it there only if it copied a thread's (clone.c). */
#define FT_TLS_MARK 0x66747473u
long ft_tls_mark_offset(void);

int ft_threads_init(void);
/* A tracer starts: state ready for the threads there are. */
void ft_threads_prepare(void);
/* How many threads the process has now. */
unsigned ft_count_threads(void);
struct ft_thread *ft_thread_create(void);
/* The state of a thread that ended unseen (a vfork() child), released. */
void ft_thread_release(struct ft_thread *t);
/* t is the thread's state again. */
void ft_thread_adopt(struct ft_thread *t);
/* Has every other thread been outside the tracers since the caller's
 * sync?  Waits a little for those inside one; 0 if one stays. */
int ft_threads_quiescent(void);
/* Hooks entered while t->own is busy (a signal interrupted the tracer)
 * run in t->signal, between these; NULL: not even there, counted lost. */
struct ft_context *ft_signal_enter(struct ft_thread *t, uintptr_t sp);
void ft_signal_leave(struct ft_thread *t);

#endif
