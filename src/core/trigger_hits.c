// SPDX-License-Identifier: GPL-2.0
/*
 * What a function with a trigger does when it is called, from any thread:
 * the probe ops' callback, the slots it reads, and the commands.
 *
 * While some function has a trigger, the callback is ftrace_call's for
 * every enabled site (or the list function's, beside the function
 * tracer's), so its common case is a function without one: the record's
 * slot is found in two loads and has nothing armed.  The slots are in
 * blocks by record id, made as triggers are first set and never freed,
 * as the profiler's counts are: a hook may hold one while the control
 * thread changes it.
 *
 * A count is taken with a compare-and-swap, so N hits from N threads at
 * once fire a command of count N exactly N times.  traceoff and traceon
 * count, as the kernel's do, only the hits that change tracing_on: one
 * that finds it as it would set it does nothing and keeps its count.
 * stacktrace records only while tracing is on, as the kernel's.
 * snapshot and dump ask the control thread for a snapshot
 * (trigger_snap.c).
 */
#include "events.h"
#include "ftrace.h"
#include "limits.h"
#include "thread.h"
#include "tracing.h"
#include "triggers.h"

#include <sys/mman.h>

#define BLOCK_SHIFT 12
#define BLOCK (1u << BLOCK_SHIFT)
#define MAX_BLOCKS 4096		/* 16M records, as the profiler's */

static struct ft_trigger_slot *_Atomic blocks[MAX_BLOCKS];

struct ft_trigger_slot *ft_trigger_slot(uint32_t id, int make)
{
	uint32_t i = id - 1, b = i >> BLOCK_SHIFT;
	struct ft_trigger_slot *block;

	if (id == 0 || b >= MAX_BLOCKS)
		return NULL;
	block = atomic_load_explicit(&blocks[b], memory_order_acquire);
	if (!block && make) {
		ft_limits_grow(BLOCK * sizeof(*block));	/* not the program's */
		block = mmap(NULL, BLOCK * sizeof(*block), PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (block == MAP_FAILED)
			return NULL;
		atomic_store_explicit(&blocks[b], block, memory_order_release);
	}
	return block ? &block[i & (BLOCK - 1)] : NULL;
}

int ft_trigger_take_count(_Atomic long *count)
{
	long n = atomic_load_explicit(count, memory_order_relaxed);

	do {
		if (n == TRIGGER_UNLIMITED)
			return 1;
		if (n <= 0)
			return 0;
	} while (!atomic_compare_exchange_weak(count, &n, n - 1));
	return 1;
}

static void give_back(_Atomic long *count)
{
	if (atomic_load(count) != TRIGGER_UNLIMITED)
		atomic_fetch_add(count, 1);
}

/* tracing_on to on, if it is not already: the count is taken first, and
 * given back by a hit that another beat to the change. */
static void set_tracing(const struct ft_trigger_hit *h, int on)
{
	int from = !on;

	if (__atomic_load_n(&ft_tracing_on, __ATOMIC_RELAXED) == on ||
	    !ft_trigger_take_count(h->count))
		return;
	if (!__atomic_compare_exchange_n(&ft_tracing_on, &from, on, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_RELAXED))
		give_back(h->count);
}

static void hit_traceoff(const struct ft_trigger_hit *h)
{
	set_tracing(h, 0);
}

static void hit_traceon(const struct ft_trigger_hit *h)
{
	set_tracing(h, 1);
}

static void hit_stacktrace(const struct ft_trigger_hit *h)
{
	if (ft_tracing_on && ft_trigger_take_count(h->count))
		ft_trigger_stack(h);
}

/*
 * The kernel's struct ftrace_func_command: what a command does, by its
 * number (its name: common/trigger.c's table).  snapshot_if_longer has no
 * hit at the call: the graph hooks time its calls (trigger_snap.c).
 */
struct ft_func_command {
	void (*hit)(const struct ft_trigger_hit *h);
};

static const struct ft_func_command commands[TRIGGER_COMMANDS] = {
	[TRIGGER_TRACEOFF] = { hit_traceoff },
	[TRIGGER_TRACEON] = { hit_traceon },
	[TRIGGER_STACKTRACE] = { hit_stacktrace },
	[TRIGGER_SNAPSHOT] = { ft_trigger_snapshot },
	[TRIGGER_DUMP] = { ft_trigger_snapshot },
};

static ft_cold void fire(struct ft_thread *t, struct ft_context *c, struct ft_trigger_slot *s,
			 uint32_t armed, uint32_t id, uintptr_t parent_ip, uintptr_t *retp)
{
	struct ft_trigger_hit h = { .t = t, .c = c, .id = id, .parent_ip = parent_ip,
				    .retp = retp };

	for (unsigned i = 0; i < TRIGGER_COMMANDS; i++)
		if ((armed >> i & 1) && commands[i].hit) {
			h.cmd = i;
			h.count = &s->count[i];
			commands[i].hit(&h);
		}
}

static ft_inline void check(struct ft_thread *t, struct ft_context *c, uintptr_t self_ret,
			    uintptr_t parent_ip, uintptr_t *retp)
{
	uint32_t id = ftrace_rec_lookup(self_ret), armed;
	struct ft_trigger_slot *s = ft_trigger_slot(id, 0);

	if (likely(!s))
		return;
	armed = atomic_load_explicit(&s->armed, memory_order_acquire);
	if (unlikely(armed))
		fire(t, c, s, armed, id, parent_ip, retp);
}

/* A signal landed inside a hook, and its handler made this call. */
static ft_cold void nested_call(struct ft_thread *t, uintptr_t self_ret, uintptr_t parent_ip,
				uintptr_t *retp)
{
	struct ft_context *c = ft_signal_enter(t, (uintptr_t)retp);

	if (!c)
		return;
	check(t, c, self_ret, parent_ip, retp);
	ft_signal_leave(t);
}

/* A thread with no state of its own (its storage shared, shared_tls.c)
 * fires nothing: the busy flag the record lookup needs is the state's. */
void ft_trigger_call(uintptr_t self_ret, uintptr_t parent_ip, uintptr_t *retp)
{
	struct ft_thread *t = ft_thread_get();

	if (unlikely(!t))
		return;
	if (unlikely(t->own.busy)) {
		nested_call(t, self_ret, parent_ip, retp);
		return;
	}
	ft_busy_enter(t);
	check(t, &t->own, self_ret, parent_ip, retp);
	ft_busy_leave(t);
}
