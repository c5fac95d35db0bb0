/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signals --snapshot-signal may name.  By name, never by number: the
 * numbers differ between arches (mips), so the command line checks the
 * name and the runtime looks it up in its own arch's numbering.
 */
#ifndef FNTRACE_SIGNAME_H
#define FNTRACE_SIGNAME_H

/* The number of "USR2" or "SIGUSR2" where the caller is built, if it is
 * one a snapshot may be asked with; 0 if not.  Left out: those that cannot
 * be caught, the runtime's SIGTRAP, the five a crash snapshot takes
 * already, those that stop or continue, SIGCHLD, and real-time signals
 * (the runtime may take the highest free one for itself). */
int ft_snapshot_signal_number(const char *name);
/* The list, for a refusal: "HUP, INT, ..." */
const char *ft_snapshot_signal_names(void);

#endif
