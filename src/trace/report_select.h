/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which events the report shows: -F, -N, -D, --min-duration and
 * --time-range, applied to one thread's events between its cursor and
 * the views, so that every view (graph, function, profile) shows the
 * same calls.  A view reads a struct sel_cursor as it would read a
 * struct tr_cursor; the events it gets nest as the raw ones do, with
 * LOST's depth counted in shown frames.
 *
 * The rules:
 *  - a function is shown if -F selects it and -N does not match it,
 *    exactly as `fntrace record -F -N` would have traced it; the frames
 *    of hidden functions are not counted in the depth of the others;
 *  - -D N hides frames N or more shown frames deep (record's -D);
 *  - --min-duration T hides calls shorter than T;
 *  - --time-range shows the calls that overlap it, the markers and lost
 *    events inside it;
 *  - a whole call (tracing_thresh's, known at its exit) is judged by the
 *    same rules, its depth counted in the shown frames around it;
 *  - a marker is never hidden but by --tid and --time-range.
 */
#ifndef FNTRACE_REPORT_SELECT_H
#define FNTRACE_REPORT_SELECT_H

#include "report.h"
#include "trace_reader.h"

/* The rules, shared by the cursors of every thread. */
struct selection {
	const struct report_options *opt;
	struct trace_data *td;
	int active;		/* any rule: else cursors pass events on as they are */
	int by_name;		/* -F or -N */
	int unknown_shown;	/* frames entered unseen (lost events) are
				 * shown, unless -F picks functions by name */
	uint64_t from, to;	/* the range, absolute ns, inclusive */
	unsigned char **verdicts;	/* per process, per function id:
					 * 0 not decided, 1 shown, 2 hidden */
	int out_of_memory;
};

/* Resolves the range against the trace's first event; -1 with a line to
 * the printer if it is empty, or out of memory. */
int selection_init(struct selection *s, struct trace_data *td,
		   const struct report_options *o);
void selection_free(struct selection *s);

struct sel_frame {
	struct tr_event entry;
	int shown;		/* passes -F, -N, -D, and began before the range ended */
	int emitted;		/* its entry went to the view */
};

struct sel_cursor {
	struct tr_cursor raw;
	struct selection *sel;
	const struct tr_thread *th;
	struct sel_frame *stack;	/* every frame the raw events have open */
	unsigned depth;
	size_t cap;
	unsigned shown_depth, emitted_depth;
	struct tr_event *queue;		/* what one raw event released */
	unsigned nr_queue, next_queue;
	size_t cap_queue;
	uint64_t when;			/* the time of that raw event */
	uint64_t last_time;
	int done;
};

void sel_cursor_init(struct sel_cursor *c, struct selection *s, const struct tr_thread *th);
void sel_cursor_free(struct sel_cursor *c);
/* As tr_cursor_peek() and tr_cursor_next(). */
const struct tr_event *sel_cursor_peek(struct sel_cursor *c);
int sel_cursor_next(struct sel_cursor *c, struct tr_event *ev);
/* When the peeked event was decided: its own time, or for a call held
 * back until its exit said it was long enough, that exit's time.  The
 * merge of threads orders by this. */
uint64_t sel_cursor_when(struct sel_cursor *c);

#endif
