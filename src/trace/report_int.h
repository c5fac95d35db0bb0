/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the report's views share: the run's state, a time-ordered merge of
 * the threads' events, and the kernel's duration format.
 */
#ifndef FNTRACE_REPORT_INT_H
#define FNTRACE_REPORT_INT_H

#include "arg_names.h"
#include "report.h"
#include "report_select.h"
#include "trace_reader.h"

struct report_thread {
	const struct tr_thread *th;
	uint64_t lost;		/* events lost, counted by the view */
	uint64_t gaps;		/* places events were lost, how many not
				 * known (TR_LOST's gap) */
};

struct report {
	struct trace_data td;
	const struct report_options *opt;
	FILE *out;
	struct report_thread *threads;	/* the selected ones, in td order */
	unsigned nr_threads;
	struct selection sel;		/* which events show */
	unsigned show;			/* REPORT_SHOW_*: the graph's columns */
	struct tr_srclines *srclines;	/* with --srcline, else NULL */
	struct tr_arg_names *arg_names;	/* what the specs call the values, or NULL */
	struct report_syms *syms;	/* each process's ELF symbols, once asked
					 * (report_stack.c) */
};

/* The views; each returns 0 or -1 (out of memory). */
int report_graph(struct report *r);
int report_function(struct report *r);
int report_stat(struct report *r);

/* The shown events of every selected thread in time order (the time
 * each was decided: sel_cursor_when); ties go to the thread that comes
 * first, and one thread's events keep their order. */
struct report_merge {
	struct sel_cursor *cursors;	/* one per selected thread */
	unsigned *heap;			/* thread indices, earliest first */
	unsigned nr_heap;
	int last;			/* returned last, not in the heap */
	int (*stopped)(void);		/* the report's: ends the merge early */
};

int merge_init(struct report_merge *m, struct report *r);
void merge_free(struct report_merge *m, const struct report *r);
/* The index of the thread whose event is next, with that event in *ev,
 * or -1 at the end.  The caller may read further events of that thread
 * from m->cursors[index] before calling again. */
int merge_next(struct report_merge *m, struct tr_event *ev);

/* "# oldest 120.0 MB (...) dropped by --max-size=8.0 MB: the last 1.234 s
 * of the recording kept", in a view's header, if it dropped some. */
void report_print_cut(const struct report *r);
/* A LOST's line, the kernel's: "[LOST N EVENTS]", or "[LOST EVENTS]"
 * for a gap in a stream's chunks; none where a stream begins (nothing
 * said lost: only its depth, to resume at). */
void report_print_lost(FILE *out, const struct tr_event *ev);
/* A LOST counted into the thread's totals, for the report's end. */
void report_count_lost(struct report_thread *rt, const struct tr_event *ev);

/* The kernel's duration column: "1234.567 us " padded to 12 columns
 * (7 significant digits at most; longer ones take more room). */
const char *report_format_duration(char *buf, size_t len, uint64_t ns);
#define REPORT_DURATION_LEN	32
/* The kernel's overhead mark: '$' > 1 s ... '+' > 10 us, else ' '. */
char report_duration_mark(uint64_t ns);
/* A function's name, or "<id N>" in buf if funcs-<pid> lacks it. */
const char *report_func_name(const struct tr_thread *th, uint32_t id,
			     char *buf, size_t len);
#define REPORT_NAME_LEN		32
/* With --srcline, "file.c:42" for a function if known; else NULL. */
const char *report_srcline(const struct report *r, const struct tr_thread *th, uint32_t id);
/* The function at addr in th's process, from the ELF symbols; else where
 * it is, in buf; NULL if out of memory. */
const char *report_addr_name(struct report *r, const struct tr_thread *th, uint64_t addr,
			     char *buf, size_t len);
/* A TR_STACK as the kernel prints it: "<stack trace>", a " => func" line
 * per frame, tail after the last (the end of the graph's comment); -1 if
 * out of memory. */
int report_print_stack(struct report *r, const struct tr_thread *th, const struct tr_event *ev,
		       const char *tail);
void report_syms_free(struct report *r);
/* The values of function id's call as text, "NAME=" before each the
 * recording's specs name (tr_args_format_named). */
size_t report_args_text(const struct report *r, const struct tr_thread *th, uint32_t id,
			const uint32_t *words, uint32_t nr, char *buf, size_t size);

#endif
