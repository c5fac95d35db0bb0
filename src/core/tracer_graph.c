// SPDX-License-Identifier: GPL-2.0
/*
 * The function graph tracer.  On entry it records the function and swaps
 * the return address in the caller's slot for return_to_handler, keeping
 * the real one, with the slot's address, on a per-thread shadow stack.
 * On return it pops the frame whose slot the return came from: frames
 * above it were skipped (longjmp, an exception) and are closed as such.
 */
#include "events.h"
#include "tracers.h"

#include <stdlib.h>

unsigned ft_graph_max_depth;
int ft_graph_retval;
static int graph_broken;

static void graph_entry(struct ft_thread *t, uintptr_t self_ret, uintptr_t *retp)
{
	uint32_t id = ftrace_rec_lookup(self_ret);
	struct shadow_frame *frame;

	if (unlikely(!id))
		return;
	if (unlikely(t->depth >= FT_SHADOW_DEPTH)) {
		t->overruns++;
		return;
	}
	if (ft_graph_max_depth && t->depth >= ft_graph_max_depth)
		return;
	/* The event first: if it brings a LOST note, that note must carry
	 * the depth before this frame. */
	ev_entry(t, id, arch_clock());
	frame = &t->stack[t->depth];
	frame->ret = *retp;
	frame->retp = retp;
	frame->id = id;
	t->depth++;
	*retp = (uintptr_t)return_to_handler;
}

void prepare_ftrace_return(uintptr_t self_ret, uintptr_t *retp)
{
	struct ft_thread *t = ft_thread_get();

	if (unlikely(!t) || t->busy || unlikely(graph_broken))
		return;
	t->busy = 1;
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

static void graph_exit(struct ft_thread *t, unsigned top, uintptr_t retval, int quiet)
{
	uint64_t now = arch_clock();

	for (; !quiet && t->depth > top; t->depth--)
		ev_unwind(t, now);
	if (quiet)
		return;
	if (ft_graph_retval)
		ev_exit_ret(t, now, retval);
	else
		ev_exit(t, now);
}

uintptr_t ftrace_return_to_handler(uintptr_t retval, uintptr_t *slot)
{
	struct ft_thread *t = ft_current;
	uint32_t busy = t->busy;
	unsigned i = find_frame(t, slot);
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
	graph_exit(t, i, retval, busy);
	t->depth = i - 1;
	t->busy = busy;
	return ret;
}
