// SPDX-License-Identifier: GPL-2.0
/*
 * The function graph's frames given up or given back: the real return
 * addresses put back in their slots while the program's own unwinder
 * walks them (unwind.c), and taken again for the frames still alive;
 * every frame closed when the thread leaves its stack (swapcontext) or
 * no frame of it will return; the frames forgotten in a forked child.
 */
#include "events.h"
#include "readout.h"
#include "thread.h"
#include "tracers.h"
#include "tracing.h"

static void unhijack(struct ft_context *c)
{
	for (unsigned i = 0; i < c->depth; i++) {
		struct shadow_frame *f = &ft_stack(c)[i];

		if (*f->retp == (uintptr_t)return_to_handler) {
			*f->retp = f->ret;
			f->flags |= FRAME_RESTORED;
		}
	}
}

/* Put the real return addresses back, for an unwinder that reads them. */
void graph_unhijack(struct ft_thread *t)
{
	unhijack(&t->own);
	unhijack(&t->signal);
}

static void rehijack(struct ft_context *c)
{
	for (unsigned i = 0; i < c->depth; i++) {
		struct shadow_frame *f = &ft_stack(c)[i];

		if ((f->flags & FRAME_RESTORED) && *f->retp == f->ret) {
			*f->retp = (uintptr_t)return_to_handler;
			f->flags &= ~FRAME_RESTORED;
		}
	}
}

/* And take them again, for the frames still alive. */
void graph_rehijack(struct ft_thread *t)
{
	rehijack(&t->own);
	rehijack(&t->signal);
}

/*
 * A function's return address, as it reads it at its entry (for
 * ThreadSanitizer's hook): the real one if it is return_to_handler.  The
 * function is running, so every call the graph took below it has
 * returned and been popped: the newest frame is its own, or, if it was
 * not traced itself (a tail call), that of the traced caller whose
 * return it will take; either way that frame's return is the one.  (The
 * signal context's frames are the newest while it has any.)  The frame's
 * slot is not compared: at an aarch64 patchable entry it lay below the
 * function's stack pointer, the function's own to overwrite since.
 */
uintptr_t graph_newest_return(uintptr_t ret)
{
	const struct ft_thread *t = ft_current;
	const struct ft_context *c;

	if (ret != (uintptr_t)return_to_handler || !t)
		return ret;
	c = t->signal.depth ? &t->signal : &t->own;
	return c->depth ? ft_stack(c)[c->depth - 1].ret : ret;
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

	if (t->own.graph_off)
		return;
	graph_close_all(t);
	t->own.graph_off = 1;
	if (ft_graph.trace)
		ft_marker_write(text, sizeof(text) - 1);
}

/* No frame of the thread will return: each gets its real return address
 * back and is closed as unwound. */
void graph_close_all(struct ft_thread *t)
{
	graph_unhijack(t);
	graph_unwind_below(t, UINTPTR_MAX);
	graph_say_missed(t);
}

static void forget(struct ft_context *c)
{
	c->depth = 0;
	c->lost_low = 0;
	c->graph_functions = c->notrace_frames = c->profile_frames = 0;
}

void graph_forget_all(struct ft_thread *t)
{
	forget(&t->own);
	forget(&t->signal);
}
