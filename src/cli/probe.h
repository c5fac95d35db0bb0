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

#endif
