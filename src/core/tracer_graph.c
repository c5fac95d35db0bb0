// SPDX-License-Identifier: GPL-2.0
/*
 * The function graph hooks.  On entry the real return address is swapped
 * for return_to_handler and kept, with the address of its slot and the
 * entry time, on a per-thread shadow stack.  On return the frame whose
 * slot the return came from is popped: frames above it were skipped
 * (longjmp, an exception) and are closed as unwound.
 *
 * set_graph_function limits tracing to calls made inside the functions it
 * names; set_graph_notrace hides everything below the functions it names
 * (their frames are kept, untraced, to know when they end).
 */
#include "events.h"
#include "profile.h"
#include "readout.h"
#include "tracers.h"
#include "tracing.h"

#include <stdlib.h>

#define FRAME_TRACED	0x1	/* an entry was written: write the exit */
#define FRAME_FUNCTION	0x2	/* a set_graph_function function */
#define FRAME_NOTRACE	0x4	/* a set_graph_notrace function */
#define FRAME_RESTORED	0x8	/* its slot holds the real return address again
				 * (while the program's unwinder walks) */

int ft_graph_trace;
int ft_graph_profile;
unsigned ft_graph_max_depth;
int ft_graph_retval;
int ft_graph_filters;
int ft_graph_functions;
static int graph_broken;

/* With graph filters on: may this call be graph-traced, and how? */
static int graph_filter(const struct ft_thread *t, uint32_t id, uint32_t *flags)
{
	const struct ftrace_rec *rec = ftrace_rec_get(id);

	if (t->notrace_frames)
		return 0;
	if (rec->flags & FTRACE_FL_GRAPH_NOTRACE) {
		*flags = FRAME_NOTRACE;
		return 1;
	}
	if (rec->flags & FTRACE_FL_GRAPH_FUNC)
		*flags = FRAME_FUNCTION;
	return !ft_graph_functions || t->graph_functions || *flags;
}

static void push_frame(struct ft_thread *t, uintptr_t *retp, uint32_t id,
		       uint32_t flags, uint64_t now)
{
	struct shadow_frame *frame = &t->stack[t->depth];

	frame->ret = *retp;
	frame->retp = retp;
	frame->id = id;
	frame->flags = flags;
	frame->time = now;
	t->graph_functions += !!(flags & FRAME_FUNCTION);
	t->notrace_frames += !!(flags & FRAME_NOTRACE);
	t->depth++;
	*retp = (uintptr_t)return_to_handler;
}

static void graph_entry(struct ft_thread *t, uintptr_t self_ret, uintptr_t *retp)
{
	uint32_t id = ftrace_rec_lookup(self_ret), flags = 0;
	uint64_t now;

	if (unlikely(!id))
		return;
	if (unlikely(t->depth >= FT_SHADOW_DEPTH)) {
		/* The first of a run of calls with no room is said at once;
		 * the run's total, when room comes back (pop_frame). */
		if (t->overruns++ == t->overruns_written && ft_graph_trace)
			ev_overrun(t);
		return;
	}
	if ((ft_graph_max_depth && t->depth >= ft_graph_max_depth) ||
	    (unlikely(ft_graph_filters) && !graph_filter(t, id, &flags)))
		return;
	now = arch_clock();
	/* The event before the push: a LOST note it brings must carry the
	 * depth before this frame. */
	if (ft_graph_trace && ft_tracing_on && !(flags & FRAME_NOTRACE)) {
		ev_entry(t, id, now);
		flags |= FRAME_TRACED;
	}
	push_frame(t, retp, id, flags, now);
}

void prepare_ftrace_return(uintptr_t self_ret, uintptr_t *retp)
{
	struct ft_thread *t = ft_thread_get();

	if (unlikely(!t) || t->busy || unlikely(graph_broken | t->graph_off))
		return;
	t->busy = 1;
	t->busy_sp = (uintptr_t)retp;
	graph_entry(t, self_ret, retp);
	t->busy = 0;
}

/* The frame this return belongs to: normally the top one. */
static unsigned find_frame(const struct ft_thread *t, uintptr_t *slot)
{
	unsigned i = t->depth;

	while (i > 0 && t->stack[i - 1].retp != slot)
		i--;
	return i;
}

uintptr_t graph_real_return(const struct ft_thread *t, uintptr_t *slot)
{
	unsigned i = find_frame(t, slot);

	return i ? t->stack[i - 1].ret : 0;
}

/* Close the top frame: returned (unwound = 0) or skipped. */
static void pop_frame(struct ft_thread *t, uint64_t now, uintptr_t retval,
		      int unwound, int quiet)
{
	struct shadow_frame *f = &t->stack[t->depth - 1];

	if (!quiet && (f->flags & FRAME_TRACED)) {
		if (unwound)
			ev_unwind(t, now);
		else if (ft_graph_retval)
			ev_exit_ret(t, now, retval);
		else
			ev_exit(t, now);
	}
	if (!quiet && !unwound && ft_graph_profile)
		ft_profile_add(f->id, now - f->time);
	t->graph_functions -= !!(f->flags & FRAME_FUNCTION);
	t->notrace_frames -= !!(f->flags & FRAME_NOTRACE);
	t->depth--;
	if (unlikely(t->overruns != t->overruns_written) && !quiet && ft_graph_trace)
		ev_overrun(t);
}

uintptr_t ftrace_return_to_handler(uintptr_t retval, uintptr_t *slot)
{
	struct ft_thread *t = ft_current;
	uint32_t busy = t->busy;
	unsigned i = find_frame(t, slot);
	uint64_t now = arch_clock();
	uintptr_t ret;

	if (unlikely(i == 0)) {
		/* No frame for this slot: the shadow stack is not what the
		 * real stack is.  Return where the newest frame says and trace
		 * no more graphs rather than guess again. */
		if (t->depth == 0) {
			ft_warn("function_graph: a return with nothing on the shadow stack");
			abort();
		}
		if (!graph_broken)
			ft_warn("function_graph: shadow stack out of step; graph tracing stopped");
		graph_broken = 1;
		i = t->depth;
	}
	ret = t->stack[i - 1].ret;
	t->busy = 1;
	t->busy_sp = (uintptr_t)slot;
	while (t->depth > i)
		pop_frame(t, now, 0, 1, busy);
	pop_frame(t, now, retval, 0, busy);
	t->busy = busy;
	return ret;
}

/*
 * The program unwinds its own stack: longjmp, an exception, pthread_exit.
 * Frames whose return slot lies below sp are gone: closed as unwound,
 * without touching their (dead) slots.
 */
void graph_unwind_below(struct ft_thread *t, uintptr_t sp)
{
	uint64_t now = arch_clock();

	t->busy = 1;
	while (t->depth > 0 && (uintptr_t)t->stack[t->depth - 1].retp < sp)
		pop_frame(t, now, 0, 1, 0);
	t->busy = 0;
}

/* Put the real return addresses back, for an unwinder that reads them. */
void graph_unhijack(struct ft_thread *t)
{
	for (unsigned i = 0; i < t->depth; i++) {
		struct shadow_frame *f = &t->stack[i];

		if (*f->retp == (uintptr_t)return_to_handler) {
			*f->retp = f->ret;
			f->flags |= FRAME_RESTORED;
		}
	}
}

/* And take them again, for the frames still alive. */
void graph_rehijack(struct ft_thread *t)
{
	for (unsigned i = 0; i < t->depth; i++) {
		struct shadow_frame *f = &t->stack[i];

		if ((f->flags & FRAME_RESTORED) && *f->retp == f->ret) {
			*f->retp = (uintptr_t)return_to_handler;
			f->flags &= ~FRAME_RESTORED;
		}
	}
}

/*
 * The thread switches stacks (swapcontext): the shadow stack can no
 * longer follow its returns.  Every frame gets its real return address
 * back and is closed, a marker says so, and the graph tracer leaves this
 * thread alone from now on.
 */
void graph_suspend(struct ft_thread *t)
{
	static const char text[] = "fntrace: graph tracing suspended for this thread (swapcontext)";

	if (t->graph_off)
		return;
	graph_close_all(t);
	t->graph_off = 1;
	if (ft_graph_trace)
		ft_marker_write(text, sizeof(text) - 1);
}

/* No frame of the thread will return: each gets its real return address
 * back and is closed as unwound. */
void graph_close_all(struct ft_thread *t)
{
	graph_unhijack(t);
	graph_unwind_below(t, UINTPTR_MAX);
}
