// SPDX-License-Identifier: GPL-2.0
/*
 * A thread's events as calls that always nest (calls.h).  The walk keeps
 * the thread's stack of open frames; what the raw events leave unbalanced
 * (lost events, an exit whose entry came before the trace, a thread still
 * running at the end) is settled here once, not in every export.
 */
#include "calls.h"
#include "../common/array.h"

#include <stdlib.h>

void call_walk_init(struct call_walk *w, struct trace_data *td, const struct tr_thread *th)
{
	*w = (struct call_walk) { .th = th };
	tr_cursor_init(&w->cursor, td, th);
}

void call_walk_free(struct call_walk *w)
{
	tr_cursor_free(&w->cursor);
	free(w->stack);
	w->stack = NULL;
}

static int push(struct call_walk *w, uint32_t func, uint64_t start, struct call_event *ev)
{
	if (w->depth >= w->cap &&
	    grow_array((void **)&w->stack, &w->cap, w->depth + 1, sizeof(*w->stack)))
		return -1;
	w->stack[w->depth] = (struct call_frame) { .func = func, .start = start };
	ev->kind = CALL_ENTER;
	ev->func = func;
	ev->depth = w->depth++;
	ev->time = start;
	return 1;
}

static int pop(struct call_walk *w, uint64_t time, enum call_end end, struct call_event *ev)
{
	const struct call_frame *f = &w->stack[--w->depth];

	ev->kind = CALL_EXIT;
	ev->func = f->func;
	ev->depth = w->depth;
	ev->start = f->start;
	ev->time = time > f->start ? time : f->start;
	ev->end = end;
	return 1;
}

/* A LOST: close the frames that returned unseen, say it (unless it is
 * where the stream begins), open stand-ins for the ones entered unseen (the
 * loop in call_walk_next does each). */
static void settle_loss(struct call_walk *w, const struct tr_event *raw)
{
	unsigned resume = tr_resume_depth(raw);

	w->closing = w->depth > resume ? w->depth - resume : 0;
	w->closing_why = CALL_CUT_BY_LOSS;
	w->closing_time = raw->time;
	w->opening = resume > w->depth ? resume - w->depth : 0;
	w->held = *raw;
	w->has_held = raw->value != 0 || raw->gap;
}

static void take_args(struct call_event *ev, const struct tr_event *raw)
{
	ev->args = raw->args;
	ev->args_words = raw->args_words;
}

/* 1 with *ev filled, 0 if the raw event makes no call event. */
static int take_raw(struct call_walk *w, const struct tr_event *raw, struct call_event *ev)
{
	ev->time = raw->time;
	ev->depth = w->depth;
	switch (raw->type) {
	case TR_ENTRY:
		take_args(ev, raw);
		return push(w, raw->func, raw->time, ev);
	case TR_EXIT:
		if (!w->depth)
			return 0;
		pop(w, raw->time, raw->exit_kind == TR_EXIT_UNWIND ? CALL_UNWOUND : CALL_RETURNED,
		    ev);
		ev->has_retval = raw->exit_kind == TR_EXIT_RET;
		ev->value = raw->value;
		take_args(ev, raw);
		return 1;
	case TR_FUNC:
		take_args(ev, raw);
		ev->kind = CALL_HIT;
		ev->func = raw->func;
		ev->value = raw->value;
		return 1;
	case TR_CALL:
		ev->kind = CALL_WHOLE;
		ev->func = raw->func;
		ev->depth = raw->depth;
		ev->start = raw->time - raw->value;
		ev->end = raw->exit_kind == TR_EXIT_UNWIND ? CALL_UNWOUND : CALL_RETURNED;
		return 1;
	case TR_MARKER:
		ev->kind = CALL_MARKER;
		ev->text = raw->text;
		ev->text_len = raw->text_len;
		return 1;
	case TR_LOST:
		settle_loss(w, raw);
		return 0;
	case TR_STACK:	/* the report's alone: no call of its own */
		return 0;
	}
	return 0;
}

static int say_loss(struct call_walk *w, struct call_event *ev)
{
	w->has_held = 0;
	ev->kind = CALL_LOST;
	ev->time = w->held.time;
	ev->cpu = w->held.cpu;
	ev->depth = w->depth;
	ev->value = w->held.value;
	ev->lost_unknown = w->held.gap;
	return 1;
}

int call_walk_next(struct call_walk *w, struct call_event *ev)
{
	struct tr_event raw;

	*ev = (struct call_event) { .cpu = TR_NO_CPU };
	for (;;) {
		if (w->closing) {
			w->closing--;
			return pop(w, w->closing_time, w->closing_why, ev);
		}
		if (w->has_held)
			return say_loss(w, ev);
		if (w->opening) {
			w->opening--;
			return push(w, 0, w->held.time, ev);
		}
		if (w->done)
			return 0;
		if (!tr_cursor_next(&w->cursor, &raw)) {
			w->done = 1;
			w->closing = w->depth;
			w->closing_why = CALL_UNFINISHED;
			w->closing_time = w->last_time;
			continue;
		}
		w->last_time = raw.time;
		ev->cpu = raw.cpu;
		int made = take_raw(w, &raw, ev);
		if (made)
			return made;
	}
}
