/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfork() children: a state of their own on their parent's storage
 * (vfork.c; the stub that calls these is the arch's vfork.S).
 */
#ifndef FNTRACE_VFORK_H
#define FNTRACE_VFORK_H

/* The parent, before the system call: its state put aside. */
void ft_vfork_enter(void);
/* The parent, running again (ret: the system call's): its state back,
 * the child's released.  What vfork() returns, errno set. */
long ft_vfork_leave(long ret);
/* May this thread make a state now?  Not a parent between the two. */
int ft_vfork_may_create(void);
/* A state was made: a vfork() child's gets a function table too. */
void ft_vfork_created(void);

#endif
