/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `fntrace info`: what a data directory holds, without printing the
 * trace: the run (command, tracer, what was asked for, when, how long,
 * how the program ended), the processes and their threads with their
 * events, calls and lost events (counted as the recorder counts them:
 * counts.h), and whether anything is missing.
 */
#ifndef FNTRACE_INFO_H
#define FNTRACE_INFO_H

#include <stdio.h>

/* Prints what dir holds to out.  Returns 0, or 1 after one line to
 * the printer (src/common/print.h) if dir cannot be read. */
int info_run(const char *dir, FILE *out);

struct trace_data;
/* A snapshot's: when, why, what came before, each thread's window
 * (info_snapshot.c); nothing for a recording. */
void info_print_snapshot(const struct trace_data *td, FILE *out);

#endif
