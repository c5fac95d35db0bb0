/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing a recorded trace: `fntrace report`, and `fntrace live` once its
 * recording is done.  The views follow the kernel's trace file formats:
 * function_graph, function, and trace_stat/function for the profile.
 */
#ifndef FNTRACE_REPORT_H
#define FNTRACE_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct filter;
struct tr_chunk_ref;

/* The function_graph view's columns and comments, the kernel's funcgraph-*
 * options (-O NAME, -O noNAME). */
enum report_show {
	REPORT_SHOW_ABSTIME	= 1 << 0,	/* a leading timestamp column */
	REPORT_SHOW_CPU		= 1 << 1,
	REPORT_SHOW_PROC	= 1 << 2,	/* TASK/PID */
	REPORT_SHOW_DURATION	= 1 << 3,
	REPORT_SHOW_TAIL	= 1 << 4,	/* the function's name after '}' */
	REPORT_SHOW_RETVAL	= 1 << 5,	/* return values, if recorded */
};
#define REPORT_SHOW_DEFAULT	(REPORT_SHOW_CPU | REPORT_SHOW_PROC | \
				 REPORT_SHOW_DURATION | REPORT_SHOW_TAIL | \
				 REPORT_SHOW_RETVAL)

/* --sort keys of the profile: descending but for name. */
enum report_sort_key {
	REPORT_SORT_TOTAL,
	REPORT_SORT_SELF,
	REPORT_SORT_HITS,
	REPORT_SORT_AVG,
	REPORT_SORT_NAME,
};
#define REPORT_SORT_MAX		8

/* A --time-range end: nanoseconds after the trace's first event, or an
 * absolute CLOCK_MONOTONIC time. */
struct report_time {
	uint64_t ns;
	int absolute;
	int set;		/* 0: this side of the range is open */
};

/* Zero-initialised: the trace view of the tracer that recorded, every
 * thread, every call. */
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
	int (*stopped)(void);	/* if set and true, the trace ends here
				 * (Ctrl-C while a large part prints) */

	/* What is shown: as if recorded with the same -F, -N and -D. */
	const struct filter *filter;	/* NULL or empty: every function */
	const struct filter *notrace;
	unsigned max_depth;		/* 0: no limit */
	uint64_t min_duration;		/* ns; shorter calls are hidden */
	struct report_time from, to;	/* --time-range */
	unsigned show_on, show_off;	/* -O: added to, taken from the default */
	enum report_sort_key sort[REPORT_SORT_MAX];
	unsigned nr_sort;		/* 0: the default order */
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
	struct tr_chunk_ref *ends;	/* each stream's last piece so far, so
					 * that a gap between parts is said */
	size_t nr_ends;
};

void report_carry_free(struct report_carry *carry);

/* The values of the options, as typed; each returns 0, or -1 if the text
 * is not one (report_parse.c). */
/* "500ns", "100us", "2ms", "1s", "1.5ms"; a bare number is ns. */
int report_parse_duration(const char *text, uint64_t *ns);
/* "START~END", either side possibly empty; END not before START when
 * both are of the same kind. */
int report_parse_range(const char *text, struct report_time *from,
		       struct report_time *to);
/* "KEY[,KEY]...": total, self, hits, avg, name. */
int report_parse_sort(const char *text, struct report_options *o);
/* "NAME" or "noNAME": abstime, cpu, proc, duration, tail, retval. */
int report_parse_show(const char *text, struct report_options *o);
/* The columns shown: the default, with -O's changes. */
unsigned report_show(const struct report_options *o);

/* Prints the trace in data directory dir to out.  Returns 0, or 1 after
 * one line to the printer (src/common/print.h) if dir cannot be read.  o may be
 * NULL for the defaults. */
int report_run(const char *dir, FILE *out, const struct report_options *o);

#endif
