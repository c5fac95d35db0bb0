// SPDX-License-Identifier: GPL-2.0
/*
 * The stacktrace trigger: the stack of a call, written into the trace as
 * one FT_LONG_STACK event (common/trace_format.h), innermost frame first,
 * which the report prints as the kernel prints its stack entries.
 *
 * The frames the runtime can name without guessing come first: the
 * function hit, by its id.  While the graph hooks run (function_graph or
 * the profiler) the shadow stack knows the traced calls around it, and
 * their ids follow: nothing is read from the program's stack.  Where they
 * give nothing more (no graph hooks, or no traced call open around it),
 * the caller's return address follows, the one the hook was given, and
 * then what the frame-pointer chain gives (ARCH_FRAME_RECORD): trusted
 * where the program keeps frame pointers, which gcc's -pg does but on
 * x86_64, whose -mfentry lets them go.  Every word of the chain is read
 * as a string argument is (ft_args_read: a page that is not there is
 * never touched), the chain must climb the stack, and it is followed
 * only so far: a bad frame ends the trace, never the program.  The
 * runtime's own frames and the traced function's lie below its return
 * address's slot and are passed over; a return address the graph tracer
 * took (return_to_handler) is given back as the real one.
 *
 * The words go straight into the thread's chunk, nothing staged on the
 * traced thread's stack, which may be a small signal stack.
 */
#include "args.h"
#include "events.h"
#include "tracers.h"
#include "triggers.h"

/* The farthest one frame may lie from the next: further is not a chain
 * but a stray word. */
#define MAX_FRAME_BYTES (16u << 20)
/* Frames walked at most: the runtime's own and the traced ones. */
#define MAX_STEPS (FT_STACK_MAX_FRAMES + 16)

static void put_addr(uint32_t *w, uintptr_t addr)
{
	w[0] = (uint32_t)addr;
	w[1] = (uint32_t)((uint64_t)addr >> 32);
}

/* The function hit, then the traced calls it runs in, innermost first: a
 * signal handler's inside the frames it interrupted. */
static unsigned put_ids(const struct ft_trigger_hit *h, uint32_t *w)
{
	const struct ft_context *inner[] = { h->c, h->c == &h->t->signal ? &h->t->own : NULL };
	unsigned n = 0;

	w[n++] = h->id;
	if (!ft_graph.trace && !ft_graph.profile)
		return n;
	for (unsigned k = 0; k < 2 && inner[k]; k++)
		for (uint32_t i = inner[k]->depth; i > 0 && n < FT_STACK_MAX_FRAMES; i--)
			w[n++] = ft_stack(inner[k])[i - 1].id;
	return n;
}

/* The real return address of a frame record whose slot holds ret. */
static uintptr_t real_return(const struct ft_trigger_hit *h, uintptr_t ret, uintptr_t *slot)
{
	uintptr_t real = ret == (uintptr_t)return_to_handler ? graph_real_return(h->t, slot) : 0;

	return real ? real : ret;
}

/* The return addresses the frame-pointer chain holds above the traced
 * function's frame, after the caller's; at most max. */
static unsigned put_chain(const struct ft_trigger_hit *h, uint32_t *w, unsigned max)
{
	uintptr_t fp = (uintptr_t)__builtin_frame_address(0), rec[2];
	unsigned n = 0;

	put_addr(w, h->parent_ip);
	if (!ARCH_FRAME_CHAIN)
		return 1;
	for (unsigned step = 0; step < MAX_STEPS && 1 + n < max; step++) {
		uintptr_t *at = (uintptr_t *)fp + ARCH_FRAME_RECORD;

		if (fp % sizeof(uintptr_t) ||
		    ft_args_read((uintptr_t)at, (char *)rec, sizeof(rec)) != sizeof(rec) || !rec[1])
			break;
		if ((uintptr_t)at > (uintptr_t)h->retp)
			put_addr(w + 2 * (1 + n++), real_return(h, rec[1], at + 1));
		if (rec[0] <= fp || rec[0] - fp > MAX_FRAME_BYTES)
			break;
		fp = rec[0];
	}
	return 1 + n;
}

void ft_trigger_stack(const struct ft_trigger_hit *h)
{
	struct ft_context *c = h->c;
	unsigned ids, addrs = 0;

	if (ft_buffer_reserve(c, FT_MAX_EVENT_WORDS + 1 + 2 * FT_STACK_MAX_FRAMES))
		return;
	ev_cpu(c);
	c->last = arch_clock();
	ev_time(c, c->last);
	ids = put_ids(h, c->pos + 1);
	if (ids == 1)
		addrs = put_chain(h, c->pos + 2, FT_STACK_MAX_FRAMES - 1);
	ev_commit(c, ft_stack_word(ids, addrs), ids + 2 * addrs);
}
