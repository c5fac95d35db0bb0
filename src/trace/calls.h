/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One thread's events as calls that always nest: what the exports (Chrome
 * JSON, Perfetto, folded stacks, the flame graph) want, where the raw
 * events may not.
 *
 *   raw events                      calls
 *   exit (entered before the trace) dropped: nothing says which function
 *   LOST, resuming 1 deep at t      the frames below depth 1 close at t;
 *                                   or unnamed frames (func 0) open at t
 *   end of the thread's events      every open frame closes at its last
 *                                   event's time, marked unfinished
 *   a whole call (tracing_thresh)   a call of its own, from its start to
 *                                   its exit, after the calls it made
 *
 * Memory is one frame per level of the deepest stack, whatever the size
 * of the trace.
 */
#ifndef FNTRACE_CALLS_H
#define FNTRACE_CALLS_H

#include "trace_reader.h"

enum call_kind {
	CALL_ENTER,
	CALL_EXIT,
	CALL_MARKER,	/* text, text_len: a trace_marker write */
	CALL_LOST,	/* lost events were counted here */
	CALL_HIT,	/* the function tracer's: func was called (value:
			 * the caller's address), no duration */
	CALL_WHOLE,	/* a whole call (tracing_thresh), at its exit: func,
			 * start, time, end; depth: the graph frames around
			 * it.  It comes after the calls it made, and nests
			 * in the open frames only by its times */
};

/* How a frame was closed. */
enum call_end {
	CALL_RETURNED,		/* its exit event */
	CALL_UNWOUND,		/* skipped by longjmp or an exception */
	CALL_CUT_BY_LOSS,	/* events were lost; it returned unseen */
	CALL_UNFINISHED,	/* still running when the trace ends */
};

/* Its 4-byte fields in pairs, as tr_event's. */
struct call_event {
	enum call_kind kind;
	uint32_t cpu;		/* TR_NO_CPU if unknown */
	uint64_t time;		/* CLOCK_MONOTONIC ns */
	uint32_t func;		/* ENTER, EXIT: 0 for a frame entered unseen */
	unsigned depth;		/* ENTER, EXIT: the frame's, 0 outermost;
				 * MARKER, LOST: the stack's; WHOLE: as
				 * recorded */
	uint64_t start;		/* EXIT, WHOLE: when the call was entered */
	enum call_end end;	/* EXIT, WHOLE */
	int has_retval;		/* EXIT: value is the return value */
	uint64_t value;		/* EXIT: return value; LOST: events lost;
				 * HIT: the caller's address */
	int lost_unknown;	/* LOST: how many not known (a gap) */
	const char *text;	/* MARKER: not NUL-terminated, valid until
				 * the next call */
	uint32_t text_len;
	uint32_t args_words;
	const uint32_t *args;	/* ENTER, HIT: the values the call was given;
				 * EXIT: the value it gave back; NULL if none
				 * (trace_args.h), args_words of them; valid
				 * until the next call */
};

struct call_frame {
	uint32_t func;
	uint64_t start;
};

struct call_walk {
	struct tr_cursor cursor;
	const struct tr_thread *th;
	struct call_frame *stack;
	unsigned depth;
	size_t cap;
	unsigned closing;	/* frames to close before the next event */
	enum call_end closing_why;
	uint64_t closing_time;
	struct tr_event held;	/* a LOST, said after the closing ... */
	int has_held;
	unsigned opening;	/* ... and before this many unseen frames */
	uint64_t last_time;
	int done;
};

void call_walk_init(struct call_walk *w, struct trace_data *td, const struct tr_thread *th);
void call_walk_free(struct call_walk *w);
/* 1 and the next call event in *ev, 0 at the end, -1 out of memory. */
int call_walk_next(struct call_walk *w, struct call_event *ev);

#endif
