/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Crash snapshots (crash.c): a thread about to die of SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE or SIGABRT says so to the flight recorder.
 */
#ifndef FNTRACE_CORE_CRASH_H
#define FNTRACE_CORE_CRASH_H

#include <signal.h>

struct ft_snap;

/* A flight recorder holds the snapshot buffer s: our handler for each of
 * the five signals whose disposition is the default. */
void ft_crash_start(struct ft_snap *s);
/* The program's sigaction() of sig: 1 if it is none of ours, else done
 * (0, or -1 with errno), our handler standing in for the default. */
int ft_crash_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

#endif
