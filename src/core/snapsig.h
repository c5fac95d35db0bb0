/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signal that takes a snapshot (snapsig.c): record --overwrite
 * --snapshot-signal=SIG, FNTRACE_SNAPSHOT_SIGNAL in the program.
 */
#ifndef FNTRACE_SNAPSIG_H
#define FNTRACE_SNAPSIG_H

#include <signal.h>

/* Our handler for the signal name says (USR2, SIGUSR2), in front of what
 * the program set; nothing for NULL or a name not allowed. */
void ft_snapsig_start(const char *name);
/* The program's sigaction() of sig: 1 if it is not that signal, else
 * recorded (0, or -1 with errno). */
int ft_snapsig_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

#endif
