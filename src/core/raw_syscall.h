/* SPDX-License-Identifier: GPL-2.0 */
/*
 * syscall(): the system calls a program makes itself, past glibc's
 * wrappers and so past the runtime's.  Those that would change what the
 * runtime relies on are handled as their glibc wrappers are: the clones
 * (raw_clone.c), the signal mask (sigmask.c) and seccomp (seccomp.c).
 */
#ifndef FNTRACE_RAW_SYSCALL_H
#define FNTRACE_RAW_SYSCALL_H

/* Find the real syscall() before anything calls our wrapper. */
void ft_raw_syscall_init(void);
/* System call nr with a[0..5], past the wrapper: the real syscall(). */
long ft_syscall_pass(long nr, const long *a);
/* The runtime's own calls, which must not meet the wrapper's care for
 * the program's. */
long ft_syscall_direct(long nr, long a0, long a1, long a2, long a3);
/* Each handles its calls: 1 and the call's result in *ret, or 0. */
int ft_raw_clone(long nr, const long *a, long *ret);
int ft_raw_sigmask(long nr, const long *a, long *ret);
int ft_raw_seccomp(long nr, const long *a, long *ret);

#endif
