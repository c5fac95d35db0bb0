// SPDX-License-Identifier: GPL-2.0
/*
 * A chunk's events not taken yet go to trace.dat as a chunk of their own
 * (with the time its first event is relative to); a chunk handed over is
 * then zeroed and freed, written or not.  A chunk a live thread still
 * fills is read up to its last whole event, and `consumed` remembers how
 * far.
 */
#include "drain.h"
#include "../common/sort.h"

#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- the threads seen, for the summary ---- */

static unsigned thread_hash(const struct drain_thread *t)
{
	return (t->tid * 2654435761u) ^ (t->pid * 40503u) ^ t->image;
}

/* Its slot, or the free one where it belongs (a tid is never 0). */
static struct drain_thread *thread_slot(struct drain_thread *set, unsigned nr_slots,
					const struct drain_thread *t)
{
	unsigned i = thread_hash(t) & (nr_slots - 1);

	while (set[i].tid && (set[i].tid != t->tid || set[i].pid != t->pid ||
			      set[i].image != t->image))
		i = (i + 1) & (nr_slots - 1);
	return &set[i];
}

/* Kept at most half full; if memory runs out, the count stays short. */
static int grow_threads(struct drainer *d)
{
	unsigned n = d->nr_slots ? 2 * d->nr_slots : 64;
	struct drain_thread *set = calloc(n, sizeof(*set));

	if (!set)
		return -1;
	for (unsigned i = 0; i < d->nr_slots; i++)
		if (d->threads[i].tid)
			*thread_slot(set, n, &d->threads[i]) = d->threads[i];
	free(d->threads);
	d->threads = set;
	d->nr_slots = n;
	return 0;
}

static void note_thread(struct drainer *d, const struct ft_chunk *head)
{
	struct drain_thread t = { head->pid, head->image, head->tid }, *slot;

	if ((d->nr_threads + 1) * 2 > d->nr_slots && grow_threads(d))
		return;
	slot = thread_slot(d->threads, d->nr_slots, &t);
	if (!slot->tid) {
		*slot = t;
		d->nr_threads++;
	}
}

void drain_free(struct drainer *d)
{
	free(d->picks);
	d->picks = NULL;
	free(d->threads);
	d->threads = NULL;
	d->nr_threads = d->nr_slots = 0;
}

/* ---- chunks ---- */

/* Write the piece, in our byte order (a big-endian program's is swapped
 * into a copy), or count its events as dropped. */
static void take_piece(struct drainer *d, const struct ft_chunk *c, uint32_t end)
{
	static uint32_t copy[FT_CHUNK_SIZE / 4];
	uint32_t from = ft_shm_u32(d->shm, c->consumed);
	const uint32_t *events = (const uint32_t *)(c + 1) + from / 4;
	struct ft_chunk head = *c;
	struct tr_counts n = { 0 };

	if (end <= from)
		return;
	if (ft_shm_swapped(d->shm)) {
		ft_chunk_swap(c, events, end - from, &head, copy);
		events = copy;
	}
	head.used = end - from;
	tr_count_chunk(events, head.used / 4, &n);
	d->lost_noted += n.lost;
	ft_chunk_state_at(d->shm, c, from, &head);
	head.consumed = 0;
	if (datadir_write(d->dir, &head, events, &n)) {
		d->dir->info->dropped += n.events + n.lost;
		return;
	}
	tr_counts_add(&d->written, &n);
	note_thread(d, &head);
}

static void drain_chunk(struct drainer *d, unsigned i, uint32_t state, enum drain_what what)
{
	struct ft_chunk *c = ft_shm_chunk(d->shm, i);
	uint32_t room = FT_CHUNK_SIZE - sizeof(*c);
	uint32_t end = state == FT_CHUNK_FULL ? ft_shm_u32(d->shm, c->used)
					      : ft_chunk_filled(d->shm, c);

	end = end > room ? room : end;
	if (what != DRAIN_DISCARD)
		take_piece(d, c, end);
	if (what == DRAIN_KEEP)
		return;
	if (state == FT_CHUNK_FILLING && (what == DRAIN_LIVE || what == DRAIN_DISCARD)) {
		c->consumed = ft_shm_u32(d->shm, end);
		return;
	}
	memset(c + 1, 0, end);
	c->consumed = 0;
	atomic_store_explicit(&d->shm->state[i], ft_shm_u32(d->shm, FT_CHUNK_FREE),
			      memory_order_release);
}

/* The runtime's clock samples, which are of the clock its events carry
 * (under qemu-user not ours), into the info once it has two 1 ms apart. */
static void take_program_clock(struct drainer *d)
{
	struct clock_sync c;

	if (!ft_shm_clock_read(d->shm, c.ticks, c.ns) && c.ns[1] - c.ns[0] >= 1000000)
		d->dir->info->program_clock = c;
}

/* Full chunks first, in the order they were handed over. */
static int by_order(const void *a, const void *b)
{
	const struct drain_pick *x = a, *y = b;

	if (x->state != y->state)
		return x->state == FT_CHUNK_FULL ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static uint32_t state_of(const struct drainer *d, unsigned i)
{
	return ft_shm_u32(d->shm, atomic_load_explicit(&d->shm->state[i], memory_order_acquire));
}

/* Chunk i's state as this pass sees it: a snapshot's chunk is READING
 * while its process prints it, and whole. */
static uint32_t state_for(const struct drainer *d, unsigned i, enum drain_what what)
{
	uint32_t s = state_of(d, i);

	return what == DRAIN_KEEP && s == FT_CHUNK_READING ? FT_CHUNK_FULL : s;
}

static uint64_t order_of(const struct drainer *d, unsigned i)
{
	return ft_shm_u64(d->shm, ft_shm_chunk(d->shm, i)->order);
}

/* The order of the newest chunk handed over, as far as a look sees. */
static uint64_t newest_full(const struct drainer *d)
{
	uint64_t newest = 0;

	for (unsigned i = 0; i < ft_shm_nr_chunks(d->shm); i++)
		if (state_of(d, i) == FT_CHUNK_FULL && order_of(d, i) > newest)
			newest = order_of(d, i);
	return newest;
}

/* Is chunk i, in state s, one this pass takes? */
static int to_take(const struct drainer *d, unsigned i, uint32_t s, enum drain_what what,
		   uint64_t newest)
{
	if (s == FT_CHUNK_FULL)
		return order_of(d, i) <= newest;
	return s == FT_CHUNK_FILLING && what != DRAIN_FULL && what != DRAIN_KEEP;
}

/* The chunks to take this pass, into d->picks, in order; with no memory
 * to order them, they are taken here as they are found. */
static unsigned collect(struct drainer *d, enum drain_what what)
{
	unsigned n = 0, nr = ft_shm_nr_chunks(d->shm);
	uint64_t newest = what == DRAIN_FULL ? newest_full(d) : UINT64_MAX;

	if (!d->picks)
		d->picks = calloc(nr, sizeof(*d->picks));
	for (unsigned i = 0; i < nr; i++) {
		uint32_t s = state_for(d, i, what);

		if (!to_take(d, i, s, what, newest))
			continue;
		if (!d->picks)
			drain_chunk(d, i, s, what);
		else
			d->picks[n++] = (struct drain_pick){
				.order = order_of(d, i), .index = i, .state = s };
	}
	sort_array(d->picks, n, sizeof(*d->picks), by_order);
	return n;
}

/*
 * Chunks handed over go to trace.dat in the order they were handed over
 * (ft_chunk.order), not in the order they lie in the memory: each
 * thread's then come in its own order, and whatever is written before a
 * chunk was handed over before it, so that --max-size, which drops
 * trace.dat's oldest chunks, drops a thread's oldest first, never one
 * between two it keeps.
 *
 * A pass looks at the states twice: for the newest chunk handed over,
 * then for every full one up to it, which it takes in order.  One look
 * would not do: preempted between two chunks, it might see a thread's
 * chunk full and not the one the thread handed over just before.  Once
 * the first look is done, though, the chunk before any chunk up to the
 * newest is full: its thread marked it full before the next took its
 * order from the counter, and the newest took a later one (the
 * counter's atomic add orders the threads' stores too).  A chunk whose
 * order was taken but that is not marked full yet waits for the next
 * pass, as do those handed over since the first look; the last pass,
 * when nothing writes any more (or nothing should), takes them all, and
 * those still being filled after them.
 */
void drain(struct drainer *d, enum drain_what what)
{
	unsigned n;

	take_program_clock(d);
	n = collect(d, what);
	for (unsigned i = 0; i < n; i++)
		drain_chunk(d, d->picks[i].index, d->picks[i].state, what);
}

uint64_t drain_lost_unsaid(const struct drainer *d)
{
	uint64_t all = ft_shm_u64(d->shm, atomic_load(&d->shm->lost));

	return all > d->lost_noted ? all - d->lost_noted : 0;
}

void drain_wait(struct drainer *d, uint32_t seen, unsigned timeout_ms)
{
	struct timespec timeout = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };

	syscall(SYS_futex, &d->shm->published, FUTEX_WAIT, seen, &timeout, NULL, 0);
}

void drain_keep_info(struct drainer *d)
{
	const struct clock_sync *c = &d->dir->info->clock;
	uint64_t every = c->ns[1] == c->ns[0] ? 50000000 : 1000000000;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((uint64_t)now.tv_sec * 1000000000 + now.tv_nsec - c->ns[1] >= every)
		datadir_refresh(d->dir);
}

const char *drain_say_cut(const struct drainer *d, char *buf, size_t len)
{
	const struct datadir_info *i = d->dir->info;
	char cut[160];

	buf[0] = '\0';
	if (i->cut.chunks)
		snprintf(buf, len, "; %s", tr_format_cut(cut, sizeof(cut), i->max_size, &i->cut));
	return buf;
}

/* What the trace kept holds: --max-size's dropped chunks are not in it. */
void drain_say_summary(const struct drainer *d, const char *where)
{
	const struct datadir_info *i = d->dir->info;
	double seconds = (i->clock.ns[1] - i->clock.ns[0]) / 1e9;
	struct tr_counts kept = d->written;
	char size[32], missed[160], cut[192];

	tr_counts_sub(&kept, &d->dir->cap.counts);
	fprintf(stderr, "fntrace: recorded %llu calls, %llu events (%s) in %u thread%s "
		"over %.3f s, %llu lost%s%s%s%s\n",
		(unsigned long long)kept.calls, (unsigned long long)kept.events,
		tr_format_bytes(size, sizeof(size), d->dir->size), d->nr_threads,
		d->nr_threads == 1 ? "" : "s", seconds,
		(unsigned long long)(kept.lost + i->unsaid),
		tr_format_missed(missed, sizeof(missed), &kept), where ? " -> " : "",
		where ? where : "", drain_say_cut(d, cut, sizeof(cut)));
}
