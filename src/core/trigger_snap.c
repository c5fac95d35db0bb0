// SPDX-License-Identifier: GPL-2.0
/*
 * The triggers that take snapshots: FUNC:snapshot and FUNC:dump at the
 * call, FUNC:snapshot_if_longer:USEC at the exit of a call that lasted
 * that long.
 *
 * A program thread never takes a snapshot: it asks the control thread
 * (snapshot_ctl.c), which copies the ring while the program runs on.  A
 * trigger's request also says why, for the snapshot's info: one pending
 * request at a time, in a slot a hit claims with a compare-and-swap and
 * the control thread empties as it takes the snapshot.  A hit that finds
 * the slot taken asks nothing: the snapshot pending is taken after its
 * call, so the ring it copies holds that call too.  Nothing here waits
 * or takes a lock; the one system call is the eventfd's write, once per
 * snapshot asked for.
 *
 * A duration trigger times its calls with the graph's frames (the
 * function_graph tracer's, or the profiler's): the frame's entry time,
 * and its pop.  A storm of slow calls is turned into few snapshots by
 * snapshot_interval_ms, process-wide: a slow call within the interval of
 * the last snapshot asked is counted (suppressed), not snapshotted.
 *
 * tracing_max_latency, as the kernel's latency tracers keep it: the
 * longest of the timed calls so far.  A slow call that beats it by an
 * eighth or more is snapshotted whatever the interval, as the kernel
 * snapshots each new maximum (update_max_tr): so a snapshot of the
 * slowest call, or of one within an eighth of it, is taken; the margin
 * keeps a storm of calls about as slow as each other to few snapshots
 * (with no margin, N of them would set a new maximum about ln N times).
 */
#include "events.h"
#include "messages.h"
#include "snapshot_ctl.h"
#include "thresh.h"
#include "triggers.h"
#include "ftrace.h"
#include "../common/shm.h"
#include "../common/snapshot.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_INTERVAL_MS 1000

enum { SLOT_FREE, SLOT_FILLING, SLOT_READY };

/* The pending request: what a snapshot taken now is for. */
static struct {
	_Atomic int state;
	enum trigger_cmd cmd;
	uint32_t id, tid;
	uint64_t entry, exit;		/* a timed call's, in clock ticks */
	uint64_t slow, suppressed;	/* its slot's counts then */
	int new_max;			/* the longest timed call so far */
} pending;

static unsigned interval_ms = DEFAULT_INTERVAL_MS;
/* interval_ms in ticks, once the clock's rate is known: converted as a
 * duration trigger is set, on the control thread. */
static int interval_converted;
static _Atomic uint64_t interval_ticks;
/* When the duration triggers may ask again, in clock ticks. */
static _Atomic uint64_t next_allowed;
/* tracing_max_latency, in clock ticks; and the shortest duration armed
 * (triggers.h). */
_Atomic uint64_t ft_timed_max, ft_timed_shortest;

unsigned ft_trigger_interval_ms(void)
{
	return interval_ms;
}

void ft_trigger_set_interval_ms(unsigned ms)
{
	interval_ms = ms;
	interval_converted = 1;
	atomic_store(&interval_ticks, ms ? ft_clock_us_to_ticks((uint64_t)ms * 1000) : 0);
	atomic_store(&next_allowed, 0);
}

void ft_trigger_interval_prepare(void)
{
	if (!interval_converted)
		ft_trigger_set_interval_ms(interval_ms);
}

/* Claim the slot and ask.  A request pending already stands for this
 * one: the snapshot it asks for is taken after this call.  0 only if
 * none can be made (no control thread). */
static int request(enum trigger_cmd cmd, uint32_t id, uint32_t tid, uint64_t entry,
		   uint64_t exit, const struct ft_trigger_slot *s, int new_max)
{
	int free_state = SLOT_FREE;

	if (!atomic_compare_exchange_strong(&pending.state, &free_state, SLOT_FILLING))
		return 1;
	pending.cmd = cmd;
	pending.id = id;
	pending.tid = tid;
	pending.entry = entry;
	pending.exit = exit;
	pending.slow = s ? atomic_load(&s->slow) : 0;
	pending.suppressed = s ? atomic_load(&s->suppressed) : 0;
	pending.new_max = new_max;
	atomic_store(&pending.state, SLOT_READY);
	if (ft_snapshot_ask(NULL))
		return 1;
	atomic_store(&pending.state, SLOT_FREE);
	return 0;
}

void ft_trigger_snapshot(const struct ft_trigger_hit *h)
{
	if (ft_trigger_take_count(h->count))
		request(h->cmd, h->id, h->t->tid, 0, 0, NULL, 0);
}

/* Is function id timed for snapshot_if_longer now?  (Its calls were
 * timed as its record said: FTRACE_FL_TIMED.) */
static int timed(uint32_t id)
{
	struct ft_trigger_slot *s = ft_trigger_slot(id, 0);

	return s && (atomic_load_explicit(&s->armed, memory_order_acquire) &
		     1u << TRIGGER_SNAPSHOT_IF_LONGER);
}

/* The interval since the last snapshot a duration trigger asked for has
 * passed (or a new maximum need not wait for it): claimed for this one. */
static int interval_passed(uint64_t now, int new_max)
{
	uint64_t next = atomic_load(&next_allowed);

	if (new_max) {
		atomic_store(&next_allowed, now + atomic_load(&interval_ticks));
		return 1;
	}
	return now >= next &&
	       atomic_compare_exchange_strong(&next_allowed, &next,
					      now + atomic_load(&interval_ticks));
}

/* A call of d ticks: the longest so far is then tracing_max_latency.  Did
 * it beat the one before by an eighth or more? */
static int raise_max(uint64_t d)
{
	uint64_t max = atomic_load(&ft_timed_max);

	do {
		if (d <= max)
			return 0;
	} while (!atomic_compare_exchange_weak(&ft_timed_max, &max, d));
	return d - max >= max / 8;
}

uint64_t ft_trigger_max_latency_us(void)
{
	return ft_clock_ticks_to_us(atomic_load(&ft_timed_max));
}

void ft_trigger_set_max_latency_us(uint64_t us)
{
	atomic_store(&ft_timed_max, us ? ft_clock_us_to_ticks(us) : 0);
}

void ft_trigger_timed_exit(uint32_t id, uint32_t tid, uint64_t entry, uint64_t now)
{
	struct ft_trigger_slot *s = ft_trigger_slot(id, 0);
	_Atomic long *count;
	int new_max;

	if (!timed(id) || now < entry)
		return;
	new_max = raise_max(now - entry);
	if (now - entry < atomic_load(&s->longer_ticks))
		return;
	atomic_fetch_add(&s->slow, 1);
	count = &s->count[TRIGGER_SNAPSHOT_IF_LONGER];
	if (atomic_load(count) == 0)
		return;		/* spent: counted, as the kernel's counts stay listed */
	if (!interval_passed(now, new_max) || !ft_trigger_take_count(count)) {
		atomic_fetch_add(&s->suppressed, 1);
		return;
	}
	if (!request(TRIGGER_SNAPSHOT_IF_LONGER, id, tid, entry, now, s, new_max))
		atomic_fetch_add(&s->suppressed, 1);
}

/* ---- on the control thread ---- */

/* The earliest time the copy holds of thread tid's own events (its
 * signal handlers' aside), or UINT64_MAX if none.  Only the chunks the
 * copy says FULL: a FREE one's header is an older snapshot's, and its
 * page is not touched, which under the snapshot's lock matters with
 * thousands of small chunks (a first touch of each page of the mapping
 * is a fault, and a program that ends meanwhile leaves the lock held). */
static uint64_t thread_start(const struct ft_shm *copy, uint32_t tid)
{
	uint64_t first = UINT64_MAX;
	uint32_t pid = (uint32_t)getpid();

	for (unsigned i = 0; i < copy->nr_chunks; i++) {
		const struct ft_chunk *ch = ft_shm_chunk(copy, i);

		if (ft_chunk_state(atomic_load_explicit(&copy->state[i], memory_order_relaxed)) !=
		    FT_CHUNK_FULL)
			continue;
		if (ch->used && ch->pid == pid && ch->tid == tid && ch->context == 0 &&
		    ch->start_time < first)
			first = ch->start_time;
	}
	return first;
}

static void say_timed(char *why, size_t len, const struct ft_snap *snap, const char *name)
{
	int whole = thread_start(ft_snap_shm(snap), pending.tid) <= pending.entry;

	snprintf(why, len, "%s:snapshot_if_longer thread %u: call %llu us%s, %llu slow, "
		 "%llu suppressed%s", name, pending.tid,
		 (unsigned long long)ft_clock_ticks_to_us(pending.exit - pending.entry),
		 pending.new_max ? " (max)" : "",
		 (unsigned long long)pending.slow, (unsigned long long)pending.suppressed,
		 whole ? "" : ", start lost: ring too small");
}

void ft_trigger_snap_note(struct ft_snap *snap)
{
	const char *name;

	if (atomic_load(&pending.state) != SLOT_READY)
		return;
	name = ftrace_rec_get(pending.id)->name;
	if (pending.cmd == TRIGGER_SNAPSHOT_IF_LONGER)
		say_timed(snap->why, sizeof(snap->why), snap, name);
	else
		snprintf(snap->why, sizeof(snap->why), "%s:%s thread %u", name,
			 trigger_commands[pending.cmd].name, pending.tid);
	if (pending.cmd == TRIGGER_DUMP)
		ft_warn("dump (trigger %s:dump, thread %u): snapshot %u holds the ring: "
			"fntrace ctl %d snapshot", name, pending.tid, snap->number, (int)getpid());
	atomic_store(&pending.state, SLOT_FREE);
}
