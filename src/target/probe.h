/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Before starting a program: can fntrace trace it at all?
 */
#ifndef FNTRACE_PROBE_H
#define FNTRACE_PROBE_H

/* 1 if the program, or a shared object it needs from outside the system
 * directories, has call sites, or if it is a script (what it runs may);
 * 0 if none has; -1 (said) if unreadable. */
int probe_traceable(const char *path);
/* Can the runtime get into the program: dynamically linked, or static
 * with the runtime linked in (its .note.fntrace)?  0, or -1 after one
 * line.  A file that is not ELF passes: the loader says what it is. */
int probe_runtime_reachable(const char *path);

#endif
