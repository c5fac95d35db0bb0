/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing a recorded trace: `fntrace report`, and `fntrace live` once its
 * recording is done.  The views follow the kernel's trace file formats:
 * function_graph, function, and trace_stat/function for the profile.
 */
#ifndef FNTRACE_REPORT_H
#define FNTRACE_REPORT_H

#include <stdint.h>
#include <stdio.h>

/* Zero-initialised: the trace view of the tracer that recorded, every
 * thread. */
struct report_options {
	int stat;		/* the per-function profile instead of the trace */
	int csv;		/* the profile as CSV (implies stat) */
	int srcline;		/* each function's file:line, from DWARF */
	const uint32_t *tids;	/* only these threads, if nr_tids > 0 */
	unsigned nr_tids;
	int live;		/* read from a running process: no header after
				 * the first part, no line on how it ended */
	int no_header;		/* a continuation: no "# tracer" header */
	struct report_carry *carry;	/* trace_pipe: see below */
};

/*
 * trace_pipe prints a stream in parts.  A graph part leaves here the
 * frames each thread has open at its end, and the next part starts from
 * them: a function entered in one part closes in another at its depth and
 * with its duration.  Zero-initialised; report_carry_free() at the end.
 */
struct report_carry {
	struct carried_thread *threads;
	unsigned nr;
};

void report_carry_free(struct report_carry *carry);

/* Prints the trace in data directory dir to out.  Returns 0, or 1 after
 * one line on stderr ("fntrace: ...") if dir cannot be read.  o may be
 * NULL for the defaults. */
int report_run(const char *dir, FILE *out, const struct report_options *o);

#endif
