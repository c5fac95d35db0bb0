/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Processes and threads made by clone() (clone.c, raw_clone.c), and the
 * runtime's fork handlers, which run around them too.
 */
#ifndef FNTRACE_CLONE_H
#define FNTRACE_CLONE_H

/* pthread_atfork() for the runtime's own handlers, which clone.c runs
 * around a clone() child without CLONE_VM too: fork in all but name. */
int ft_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void));
/* In a child handler: is this a clone() child, whose process ends when
 * its one thread does?  Then it must make no thread of its own. */
int ft_forked_by_clone(void);
/* The handlers ft_atfork() registered, for a fork made otherwise;
 * clone_child: the child's process ends when its one thread does. */
void ft_fork_prepare(void);
void ft_fork_parent(void);
void ft_fork_child(int clone_child);

#endif
