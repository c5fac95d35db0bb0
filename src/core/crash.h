/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace_dump_on_oops (crash.c): a thread about to die of SIGSEGV,
 * SIGBUS, SIGILL, SIGFPE or SIGABRT says so in the ring's header, for
 * whoever holds the ring.
 */
#ifndef FNTRACE_CORE_CRASH_H
#define FNTRACE_CORE_CRASH_H

#include <signal.h>
#include <stddef.h>

struct ctl_out;

/* Switched on from the start (a recorder or a keeper holds the ring the
 * process attached): our handler for each of the five signals whose
 * disposition is the default.  0, or -1 if there is no ring. */
int ft_crash_start(void);
/* The program's sigaction() of sig: 1 if it is none of the five, else
 * done (0, or -1 with errno), our handler standing in for a default
 * while switched on. */
int ft_crash_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* In a forked child, which has one thread: whoever held the gate the
 * dispositions change under is not in it. */
void ft_crash_after_fork(void);

/* The ftrace_dump_on_oops control file: 1 switches it on, 0 off (the
 * program's dispositions back as the kernel held them). */
int ft_crash_read(struct ctl_out *o, int arg);
int ft_crash_write(const char *value, int append, int arg, char *err, size_t errlen);

#endif
