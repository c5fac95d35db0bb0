/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread state and the event writers the tracers call on every traced
 * function: inline, branch-light, no library calls (they run between a
 * function's entry and its body).  Encoding: ../common/trace_format.h.
 */
#ifndef FNTRACE_EVENTS_H
#define FNTRACE_EVENTS_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/rseq.h>

#include "arch_clock.h"
#include "ftrace.h"
#include "../common/trace_format.h"

#define FT_SHADOW_DEPTH 1024

/* A graph-traced call whose return address we took. */
struct shadow_frame {
	uintptr_t ret;		/* the real return address */
	uintptr_t *retp;	/* the stack slot it came from */
	uint32_t id;
	uint32_t flags;
	uint64_t time;		/* of the entry */
};

struct ft_thread {
	uint32_t *pos, *end;	/* room left in the current chunk */
	uint64_t last;		/* time of the last event written */
	uint32_t busy;		/* recursion guard: inside a tracer */
	uint32_t graph_off;	/* graph tracing suspended (swapcontext) */
	uintptr_t busy_sp;	/* the stack where the tracer runs, while busy */
	uint32_t depth;		/* frames on the shadow stack */
	uint32_t cpu;
	uint32_t pid, tid;
	struct ft_chunk *chunk;
	uint64_t seq;		/* chunks taken so far */
	uint64_t lost;		/* events dropped since the last chunk */
	uint64_t overruns;	/* calls too deep for the shadow stack */
	uint64_t overruns_written;	/* as last written into the trace */
	uint32_t graph_functions;	/* set_graph_function frames on the stack */
	uint32_t notrace_frames;	/* set_graph_notrace frames on the stack */
	struct shadow_frame stack[FT_SHADOW_DEPTH];
};

extern __thread struct ft_thread *ft_current;
extern int ft_have_rseq;

int ft_threads_init(void);
/* A tracer starts: state ready for the threads there are (thread.c). */
void ft_threads_prepare(void);
/* How many threads the process has now. */
unsigned ft_count_threads(void);
struct ft_thread *ft_thread_create(void);
int ft_buffer_refill(struct ft_thread *t);

static inline struct ft_thread *ft_thread_get(void)
{
	struct ft_thread *t = ft_current;

	return likely(t) ? t : ft_thread_create();
}

/* The CPU from the rseq area the kernel keeps current: one load. */
static inline uint32_t ft_cpu(void)
{
	const volatile struct rseq *rs;

	if (!ft_have_rseq)
		return ~0u;
	rs = (const void *)((char *)__builtin_thread_pointer() + __rseq_offset);
	return rs->cpu_id;
}

/* Extra words at pos[1..] are written first and the head word last, with
 * release order, so neither a process that dies in between nor a reader
 * on another thread ever sees half an event. */
static inline void ev_commit(struct ft_thread *t, uint32_t head, unsigned extra)
{
	atomic_store_explicit((_Atomic uint32_t *)t->pos, head, memory_order_release);
	t->pos += 1 + extra;
}

static inline void ev_time(struct ft_thread *t, uint64_t now)
{
	t->pos[1] = (uint32_t)now;
	t->pos[2] = (uint32_t)(now >> 32);
	ev_commit(t, ft_long_word(FT_LONG_TIME, 0), 2);
}

/* The delta of an event at now; an absolute time first if it won't fit. */
static inline uint32_t ev_delta(struct ft_thread *t, uint64_t now, uint32_t max)
{
	uint64_t d = now - t->last;

	t->last = now;
	if (likely(d <= max))
		return (uint32_t)d;
	ev_time(t, now);
	return 0;
}

/* Room for the longest event, or 0 (and the event counted lost). */
static inline int ev_room(struct ft_thread *t)
{
	if (likely(t->end - t->pos >= FT_MAX_EVENT_WORDS))
		return 1;
	return ft_buffer_refill(t);
}

static inline void ev_cpu(struct ft_thread *t)
{
	uint32_t cpu = ft_cpu();

	if (unlikely(cpu != t->cpu)) {
		t->cpu = cpu;
		ev_commit(t, ft_long_word(FT_LONG_CPU, cpu & FT_LONG_MAX_PAYLOAD), 0);
	}
}

static inline void ev_entry(struct ft_thread *t, uint32_t id, uint64_t now)
{
	if (!ev_room(t))
		return;
	ev_cpu(t);
	if (likely(id <= FT_ENTRY_MAX_ID)) {
		uint32_t d = ev_delta(t, now, FT_ENTRY_MAX_DELTA);

		ev_commit(t, ft_entry_word(id, d), 0);
	} else {
		uint32_t d = ev_delta(t, now, FT_LONG_MAX_PAYLOAD);

		t->pos[1] = id;
		ev_commit(t, ft_long_word(FT_LONG_ENTRY, d), 1);
	}
}

static inline void ev_exit(struct ft_thread *t, uint64_t now)
{
	if (ev_room(t))
		ev_commit(t, ft_exit_word(ev_delta(t, now, FT_EXIT_MAX_DELTA)), 0);
}

static inline void ev_exit_ret(struct ft_thread *t, uint64_t now, uint64_t ret)
{
	uint32_t d;

	if (!ev_room(t))
		return;
	d = ev_delta(t, now, FT_LONG_MAX_PAYLOAD);
	t->pos[1] = (uint32_t)ret;
	t->pos[2] = (uint32_t)(ret >> 32);
	ev_commit(t, ft_long_word(FT_LONG_EXIT_RET, d), 2);
}

static inline void ev_unwind(struct ft_thread *t, uint64_t now)
{
	if (ev_room(t))
		ev_commit(t, ft_long_word(FT_LONG_UNWIND,
					  ev_delta(t, now, FT_LONG_MAX_PAYLOAD)), 0);
}

static inline void ev_overrun(struct ft_thread *t)
{
	if (!ev_room(t))
		return;
	t->pos[1] = (uint32_t)t->overruns;
	t->pos[2] = (uint32_t)(t->overruns >> 32);
	ev_commit(t, ft_long_word(FT_LONG_OVERRUN, 0), 2);
	t->overruns_written = t->overruns;
}

static inline void ev_func(struct ft_thread *t, uint32_t id, uintptr_t parent,
			   uint64_t now)
{
	uint32_t d;

	if (!ev_room(t))
		return;
	ev_cpu(t);
	d = ev_delta(t, now, FT_LONG_MAX_PAYLOAD);
	t->pos[1] = id;
	t->pos[2] = (uint32_t)parent;
	t->pos[3] = (uint32_t)((uint64_t)parent >> 32);
	ev_commit(t, ft_long_word(FT_LONG_FUNC, d), 3);
}

#endif
