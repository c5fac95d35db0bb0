/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files that read a data directory share: parsing helpers that
 * put the reason for a failure in td->err.
 */
#ifndef FNTRACE_TRACE_INTERNAL_H
#define FNTRACE_TRACE_INTERNAL_H

#include "trace_reader.h"

#include <stddef.h>
#include <stdint.h>

int tr_fail(struct trace_data *td, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *tr_path_in(const struct trace_data *td, const char *name);
void tr_strip_newline(char *s);
int tr_take_number(char **s, uint64_t *out);
int tr_take_u32(char **s, uint32_t *out);

/* trace.dat or its segments, indexed by thread; closed (trace_index.c). */
int tr_read_trace(struct trace_data *td);
void tr_close_trace(struct trace_data *td);

/* The funcs-PID[.IMAGE] files (processes.c). */
int tr_read_processes(struct trace_data *td);
int tr_compare_procs(const void *a, const void *b);
void tr_free_process(struct tr_process *p);

#endif
