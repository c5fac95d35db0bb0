/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread state and the event writers the tracers call on every traced
 * function: inline, branch-light, no library calls (they run between a
 * function's entry and its body).  Encoding: ../common/trace_format.h.
 */
#ifndef FNTRACE_EVENTS_H
#define FNTRACE_EVENTS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "arch_clock.h"
#include "asm_offsets.h"
#include "buffer.h"
#include "ftrace.h"
#include "thread.h"
#include "../common/trace_format.h"

#define FT_SHADOW_DEPTH 1024
#define FT_SIGNAL_DEPTH 128	/* frames of handlers that interrupted the tracer */
_Static_assert(FT_SHADOW_DEPTH <= UINT16_MAX, "a context counts its frames in 16 bits");

/* A call whose return address we took, for the graph or the profiler. */
struct shadow_frame {
	uintptr_t ret;		/* the real return address */
	uintptr_t *retp;	/* the stack slot it came from */
	uint32_t id;
	uint32_t flags;
	uint64_t time;		/* of the entry */
};

/* shadow_frame.flags */
#define FRAME_TRACED	FT_FRAME_TRACED	/* an entry was written: write the exit */
#define FRAME_FUNCTION	0x2	/* a set_graph_function function */
#define FRAME_NOTRACE	0x4	/* a set_graph_notrace function */
#define FRAME_RESTORED	0x8	/* its slot holds the real return address again
				 * (while the program's unwinder walks) */
#define FRAME_RETURN_ARGS 0x10	/* set_ftrace_args wants its return value */
#define FRAME_PROFILE_ONLY 0x20	/* the graph did not take it: timed only */
#define FRAME_WHOLE	0x40	/* tracing_thresh: no entry was written; the
				 * call is, whole, at its exit if long enough */
#define FRAME_TIMED	FT_FRAME_TIMED	/* a snapshot_if_longer trigger times it */
#define FRAME_PAIRED	FT_FRAME_PAIRED	/* entered by a detour's paired call (arch.h):
					 * return_to_handler leaves by a ret */

struct ft_thread;

/*
 * One tracing context of a thread: an event writer and a shadow stack.
 * The writers below are not re-entrant (they read pos, write words, then
 * move pos; the delta is from last), nor is a push on the shadow stack.
 * So, as the kernel gives an interrupt that arrives inside the tracer its
 * own recursion level, a thread has two contexts: its own (0) and one for
 * a signal handler that runs while context 0 is busy (1), each with its
 * own chunk, delta chain and stack.  A handler interrupting context 1
 * inside the tracer is a third level: its events are counted lost.
 */
struct ft_context {
	/* What every hook touches first, in the first cache line (one
	 * _Alignas per declarator: on "*pos, *end" it would align both). */
	_Alignas(64) uint32_t *pos;
	uint32_t *end;		/* pos to end: room left in the current chunk */
	uint64_t last;		/* time of the last event written */
	uint32_t busy;		/* recursion guard: inside a tracer */
	uint32_t depth;		/* frames on the shadow stack */
	uint32_t max_depth;	/* frames the stack has room for */
	uint32_t cpu;
	uintptr_t busy_sp;	/* the stack where the tracer runs, while busy */
	uint64_t overruns;	/* calls too deep for the shadow stack */
	uint64_t overruns_written;	/* as far as the trace says them */
	/* Frames on the stack of each kind (at most FT_SHADOW_DEPTH). */
	uint16_t graph_functions;	/* set_graph_function functions' */
	uint16_t notrace_frames;	/* set_graph_notrace functions' */
	uint16_t profile_frames;	/* the profiler's alone: the graph's
					 * depth leaves them out */
	uint32_t graph_off;	/* the thread's own: graph tracing suspended
				 * (swapcontext); here, on a line the hooks
				 * read anyway */
	uint16_t number;		/* 0 or 1, in each chunk it takes */
	uint16_t lost_low;	/* while events are lost: the fewest frames
				 * the stack held since the first (buffer.c) */
	struct ft_chunk *chunk;
	uint64_t seq;		/* chunks taken so far */
	uint64_t lost;		/* events dropped since the last chunk */
	struct ft_thread *thread;
	uint64_t off_calls;	/* calls while graph tracing was suspended
				 * or stopped for the thread */
	uint64_t off_calls_written;	/* as far as the trace says them */
};

/* Each context's shadow stack follows it, so that the hooks find it
 * without a load, on a cache line boundary. */
struct ft_thread {
	struct ft_context own;		/* context 0 */
	struct shadow_frame stack[FT_SHADOW_DEPTH];
	struct ft_context signal;	/* context 1 */
	struct shadow_frame signal_stack[FT_SIGNAL_DEPTH];
	_Atomic uint64_t nested_lost;	/* events of deeper signals, not yet said */
	struct ft_chunk_note {
		uint32_t chunk;		/* its index */
		uint32_t word;		/* its state word as published; 0: none */
	} newest[2];			/* each context's last chunk published: the
					 * next publish marks it superseded */
	char comm[2][16];		/* the thread's name, as each context
					 * last asked (buffer.c) */
	uint32_t pid, tid;
	struct ft_thread *prev, *next;	/* every thread's state (thread.c) */
};

_Static_assert(offsetof(struct ft_thread, stack) ==
	       offsetof(struct ft_thread, own) + sizeof(struct ft_context) &&
	       offsetof(struct ft_thread, signal_stack) ==
	       offsetof(struct ft_thread, signal) + sizeof(struct ft_context),
	       "a context's shadow stack follows it");

static inline struct shadow_frame *ft_stack(const struct ft_context *c)
{
	return (struct shadow_frame *)(c + 1);
}

/* The frames function_graph took, of those on c's stack: what
 * max_graph_depth limits, and the nesting the trace has open. */
static inline uint32_t ft_graph_depth(const struct ft_context *c)
{
	return c->depth - c->profile_frames;
}

/* Those of the bottom n frames of c's stack whose entry the trace holds:
 * of all of them, the nesting a reader has open, which a LOST note and a
 * chunk's header say (tracer_graph.c). */
uint32_t ft_trace_frames(const struct ft_context *c, uint32_t n);

static inline uint32_t ft_trace_depth(const struct ft_context *c)
{
	return ft_trace_frames(c, c->depth);
}

/* A tracer's guard on its thread's own context.  The fences keep, at no
 * cost, the flag's stores around what the tracer reads: the grace period
 * of the record hash (ft_threads_quiescent) watches the flag. */
static inline void ft_busy_enter(struct ft_thread *t)
{
	t->own.busy = 1;
	atomic_signal_fence(memory_order_seq_cst);
}

static inline void ft_busy_leave(struct ft_thread *t)
{
	atomic_signal_fence(memory_order_seq_cst);
	t->own.busy = 0;
}

static inline struct ft_thread *ft_thread_get(void)
{
	struct ft_thread *t = ft_current;

	return likely(t) ? t : ft_thread_create();
}

/* The CPU the thread runs on: one load (the fast paths make it too). */
static inline uint32_t ft_cpu(void)
{
	return *(const volatile uint32_t *)((char *)__builtin_thread_pointer() +
					    ft_cpu_offset);
}

/* Extra words at pos[1..] are written first and the head word last, with
 * release order, so neither a process that dies in between nor a reader
 * on another thread ever sees half an event. */
static ft_inline void ev_commit(struct ft_context *c, uint32_t head, unsigned extra)
{
	atomic_store_explicit((_Atomic uint32_t *)c->pos, head, memory_order_release);
	c->pos += 1 + extra;
}

static ft_inline void ev_time(struct ft_context *c, uint64_t now)
{
	c->pos[1] = (uint32_t)now;
	c->pos[2] = (uint32_t)(now >> 32);
	ev_commit(c, ft_long_word(FT_LONG_TIME, 0), 2);
}

/* The delta of an event at now; an absolute time first if it won't fit. */
static ft_inline uint32_t ev_delta(struct ft_context *c, uint64_t now, uint32_t max)
{
	uint64_t d = now - c->last;

	c->last = now;
	if (likely(d <= max))
		return (uint32_t)d;
	ev_time(c, now);
	return 0;
}

/* Room for the longest event, or 0 (and the event counted lost). */
static ft_inline int ev_room(struct ft_context *c)
{
	if (likely(c->end - c->pos >= FT_MAX_EVENT_WORDS))
		return 1;
	return ft_buffer_refill(c);
}

static ft_inline void ev_cpu(struct ft_context *c)
{
	uint32_t cpu = ft_cpu();

	if (unlikely(cpu != c->cpu)) {
		c->cpu = cpu;
		ev_commit(c, ft_long_word(FT_LONG_CPU, cpu & FT_LONG_MAX_PAYLOAD), 0);
	}
}

static ft_inline void ev_entry(struct ft_context *c, uint32_t id, uint64_t now)
{
	if (!ev_room(c))
		return;
	ev_cpu(c);
	if (likely(id <= FT_ENTRY_MAX_ID)) {
		uint32_t d = ev_delta(c, now, FT_ENTRY_MAX_DELTA);

		ev_commit(c, ft_entry_word(id, d), 0);
	} else {
		uint32_t d = ev_delta(c, now, FT_LONG_MAX_PAYLOAD);

		c->pos[1] = id;
		ev_commit(c, ft_long_word(FT_LONG_ENTRY, d), 1);
	}
}

static ft_inline void ev_exit(struct ft_context *c, uint64_t now)
{
	if (ev_room(c))
		ev_commit(c, ft_exit_word(ev_delta(c, now, FT_EXIT_MAX_DELTA)), 0);
}

static ft_inline void ev_exit_ret(struct ft_context *c, uint64_t now, uint64_t ret)
{
	uint32_t d;

	if (!ev_room(c))
		return;
	d = ev_delta(c, now, FT_LONG_MAX_PAYLOAD);
	c->pos[1] = (uint32_t)ret;
	c->pos[2] = (uint32_t)(ret >> 32);
	ev_commit(c, ft_long_word(FT_LONG_EXIT_RET, d), 2);
}

static ft_inline void ev_unwind(struct ft_context *c, uint64_t now)
{
	if (ev_room(c))
		ev_commit(c, ft_long_word(FT_LONG_UNWIND,
					  ev_delta(c, now, FT_LONG_MAX_PAYLOAD)), 0);
}

/* A note of n more calls the graph could not follow, and why; 0 if
 * there was no room to say it. */
static inline int ev_missed(struct ft_context *c, enum ft_missed_why why, uint64_t n)
{
	if (!ev_room(c))
		return 0;
	c->pos[1] = (uint32_t)n;
	c->pos[2] = (uint32_t)(n >> 32);
	ev_commit(c, ft_long_word(FT_LONG_MISSED, why), 2);
	return 1;
}

/* A whole call, at its exit (now): tracing_thresh's.  Its depth word
 * as FT_LONG_CALL says; took: its duration in ticks. */
static inline void ev_call(struct ft_context *c, uint32_t id, uint32_t depth, uint64_t now,
			   uint64_t took)
{
	uint32_t d;

	if (!ev_room(c))
		return;
	ev_cpu(c);
	d = ev_delta(c, now, FT_LONG_MAX_PAYLOAD);
	c->pos[1] = id;
	c->pos[2] = depth;
	c->pos[3] = (uint32_t)took;
	c->pos[4] = (uint32_t)(took >> 32);
	ev_commit(c, ft_long_word(FT_LONG_CALL, d), 4);
}

static ft_inline void ev_func(struct ft_context *c, uint32_t id, uintptr_t parent,
			   uint64_t now)
{
	uint32_t d;

	if (!ev_room(c))
		return;
	ev_cpu(c);
	d = ev_delta(c, now, FT_LONG_MAX_PAYLOAD);
	c->pos[1] = id;
	c->pos[2] = (uint32_t)parent;
	c->pos[3] = (uint32_t)((uint64_t)parent >> 32);
	ev_commit(c, ft_long_word(FT_LONG_FUNC, d), 3);
}

#endif
