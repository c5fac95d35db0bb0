// SPDX-License-Identifier: GPL-2.0
/*
 * A chunk's events not taken yet go to trace.dat as a chunk of their own
 * (with the time its first event is relative to), many to a write; a
 * chunk handed over is then zeroed and freed, written or not.  A chunk a
 * live thread still fills is read up to its last whole event, and
 * `consumed` remembers how far.
 */
#include "drain.h"
#include "../common/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* ---- pieces, written together ---- */

/*
 * What a pass takes of its chunks goes to trace.dat in one writev for up
 * to BATCH_BYTES of events, and the chunks are freed after: chunks are
 * small (8 KB at the default size), and two system calls for each cost
 * the recorder more than copying their events.  No more than stays in
 * the CPU's cache between counting the events and the kernel copying
 * them: with 4 MB batches the copy read them from memory, and the
 * recorder took 2.6 times the CPU time.  A big-endian program's events
 * are swapped into the batch's copy.
 */
#define BATCH		64
#define BATCH_BYTES	(256u << 10)
#define NOT_FREED	UINT32_MAX

struct batch_entry {
	uint32_t chunk;		/* to free once written, or NOT_FREED */
	uint32_t word;		/* its state word (our order) */
	uint32_t zero;		/* bytes of events to zero then */
};

static struct {
	struct batch_entry entry[BATCH];
	struct datadir_piece piece[BATCH];	/* what the entries' chunks
						 * hold, in the same order */
	unsigned n, nr_pieces;
	uint32_t bytes;		/* of the pieces' events */
	uint32_t copy[(BATCH_BYTES + FT_CHUNK_MAX) / 4];
} batch;

/* The piece [consumed, end) of c, in our byte order, into the batch. */
static void take_piece(struct drainer *d, const struct ft_chunk *c, uint32_t end)
{
	uint32_t from = ft_shm_u32(d->shm, c->consumed);
	const uint32_t *events = (const uint32_t *)(c + 1) + from / 4;
	struct datadir_piece *p = &batch.piece[batch.nr_pieces];

	if (end <= from)
		return;
	*p = (struct datadir_piece){ .head = *c };
	if (ft_shm_swapped(d->shm)) {
		uint32_t *copy = batch.copy + batch.bytes / 4;

		ft_chunk_swap(c, events, end - from, &p->head, copy);
		events = copy;
	}
	p->head.used = end - from;
	tr_count_chunk(events, p->head.used / 4, &p->n);
	d->lost_noted += p->n.lost;
	ft_chunk_state_at(d->shm, c, from, &p->head);
	p->head.consumed = ft_piece_mark(from);
	p->events = events;
	batch.bytes += p->head.used;
	batch.nr_pieces++;
}

/* Does the event carry a time (a delta, or TIME's own)?  A chunk begins
 * with a CPU event, which does not. */
static int timed(uint32_t head)
{
	unsigned type = (head >> 2) & 0x3f;

	return (head & 3) != 3 || type == FT_LONG_TIME || type == FT_LONG_ENTRY ||
	       type == FT_LONG_FUNC || type == FT_LONG_EXIT_RET || type == FT_LONG_UNWIND ||
	       type == FT_LONG_CALL;
}

/* The time of a piece's first timed event, if it is the earliest
 * written: what a snapshot's calls begin with (a thread takes its chunk
 * before it calls anything). */
static void note_earliest(struct drainer *d, const struct datadir_piece *p)
{
	const uint32_t *w = p->events;
	uint32_t n = p->head.used / 4, i = 0;
	int len;

	while (i < n && (len = ft_event_words(w[i])) > 0 && i + len <= n) {
		if (timed(w[i])) {
			uint64_t t = ft_event_time(w + i, p->head.start_time);

			if (!d->earliest || t < d->earliest)
				d->earliest = t;
			return;
		}
		i += len;
	}
}

/* Zeroed and free again: its generation kept, which only a writer
 * taking it moves on. */
/* The batch's pieces written (those trace.dat takes no more of counted
 * as dropped), then its chunks freed. */
static void flush(struct drainer *d)
{
	unsigned written = datadir_write_chunks(d->dir, batch.piece, batch.nr_pieces);

	for (unsigned k = 0; k < batch.nr_pieces; k++) {
		const struct datadir_piece *p = &batch.piece[k];

		if (k >= written) {
			d->dir->info->dropped += p->n.events + p->n.lost;
		} else {
			tr_counts_add(&d->written, &p->n);
			note_thread(d, &p->head);
			note_earliest(d, p);
		}
	}
	for (unsigned k = 0; k < batch.n; k++)
		if (batch.entry[k].chunk != NOT_FREED)
			ft_chunk_free(d->shm, batch.entry[k].chunk, batch.entry[k].word,
				      batch.entry[k].zero);
	batch.n = batch.nr_pieces = batch.bytes = 0;
}

/* What chunk i holds past `consumed` (its state word `word`, in our
 * order), into the batch; then, unless a live thread still fills it or
 * it is a snapshot's, the chunk is freed once the batch is written: 1 if
 * it will be. */
static int drain_chunk(struct drainer *d, unsigned i, uint32_t word, enum drain_what what)
{
	struct ft_chunk *c = ft_shm_chunk(d->shm, i);
	uint32_t room = ft_shm_chunk_size(d->shm) - sizeof(*c);
	int full = ft_chunk_state(word) == FT_CHUNK_FULL;
	uint32_t end = full ? ft_shm_u32(d->shm, c->used) : ft_chunk_filled(d->shm, c);
	int live = !full && (what == DRAIN_LIVE || what == DRAIN_DISCARD);
	int keep = live || what == DRAIN_KEEP;

	if (batch.n == BATCH || batch.bytes + room > BATCH_BYTES)
		flush(d);
	end = end > room ? room : end;
	batch.entry[batch.n++] = (struct batch_entry){ .chunk = keep ? NOT_FREED : i,
						       .word = word, .zero = end };
	if (what != DRAIN_DISCARD)
		take_piece(d, c, end);
	if (live)
		c->consumed = ft_shm_u32(d->shm, end);
	return !keep;
}

/* The runtime's clock samples, which are of the clock its events carry
 * (under qemu-user not ours), into the info once it has two 1 ms apart. */
static void take_program_clock(struct drainer *d)
{
	struct clock_sync c;

	if (!ft_shm_clock_read(d->shm, c.ticks, c.ns) && c.ns[1] - c.ns[0] >= 1000000)
		d->dir->info->program_clock = c;
}

/* Full chunks first, in the order they were handed over; then those
 * still being filled, thread by thread, each thread's in its order. */
static int by_order(const void *a, const void *b)
{
	const struct drain_pick *x = a, *y = b;
	unsigned xs = ft_chunk_state(x->word), ys = ft_chunk_state(y->word);

	if (xs != ys)
		return xs == FT_CHUNK_FULL ? -1 : 1;
	if (xs == FT_CHUNK_FULL)
		return (x->order > y->order) - (x->order < y->order);
	return ft_chunk_place_cmp(&x->place, &y->place);
}

/*
 * A second chunk of one thread seen being filled in a pass: the thread
 * filled the first and took this one while the pass looked.  What is
 * left of the first goes in the next pass, with the full ones; were this
 * one's start written before it, --max-size could drop that start and
 * keep the first's end, and the thread's events would have a hole.  So
 * this one waits for the next pass too.
 */
static int waits(const struct drain_pick *before, const struct drain_pick *p,
		 enum drain_what what)
{
	return (what == DRAIN_LIVE || what == DRAIN_DISCARD) &&
	       ft_chunk_state(p->word) == FT_CHUNK_FILLING &&
	       ft_chunk_state(before->word) == FT_CHUNK_FILLING &&
	       ft_same_stream(&before->place, &p->place);
}

/* Chunk i's state word, in our order. */
static uint32_t word_of(const struct drainer *d, unsigned i)
{
	return ft_shm_u32(d->shm, atomic_load_explicit(&d->shm->state[i], memory_order_acquire));
}

/* Chunk i's state word as this pass sees it: a snapshot's chunk is
 * READING while its process prints it, and whole. */
static uint32_t word_for(const struct drainer *d, unsigned i, enum drain_what what)
{
	uint32_t w = word_of(d, i);

	if (what == DRAIN_KEEP && ft_chunk_state(w) == FT_CHUNK_READING)
		return ft_chunk_with_state(w, FT_CHUNK_FULL);
	return w;
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
		if (ft_chunk_state(word_of(d, i)) == FT_CHUNK_FULL && order_of(d, i) > newest)
			newest = order_of(d, i);
	return newest;
}

/* Is chunk i, in state s, one this pass takes? */
static int to_take(const struct drainer *d, unsigned i, unsigned s, enum drain_what what,
		   uint64_t newest)
{
	if (s == FT_CHUNK_FULL)
		return order_of(d, i) <= newest;
	return s == FT_CHUNK_FILLING && what != DRAIN_FULL && what != DRAIN_KEEP;
}

static struct drain_pick pick(const struct drainer *d, unsigned i, uint32_t word)
{
	const struct ft_chunk *c = ft_shm_chunk(d->shm, i);

	return (struct drain_pick){ .order = ft_shm_u64(d->shm, c->order),
				    .place = ft_chunk_place(d->shm, c), .index = i, .word = word };
}

/* The chunks to take this pass, into d->picks, in order, and the free
 * ones counted in d->free; with no memory to order them, they are taken
 * here as they are found (*freed counts those). */
static unsigned collect(struct drainer *d, enum drain_what what, unsigned *freed)
{
	unsigned n = 0, nr = ft_shm_nr_chunks(d->shm);
	uint64_t newest = what == DRAIN_FULL ? newest_full(d) : UINT64_MAX;

	if (!d->picks)
		d->picks = calloc(nr, sizeof(*d->picks));
	for (unsigned i = 0; i < nr; i++) {
		uint32_t w = word_for(d, i, what);

		d->free += ft_chunk_state(w) == FT_CHUNK_FREE;
		if (!to_take(d, i, ft_chunk_state(w), what, newest))
			continue;
		if (!d->picks)
			*freed += drain_chunk(d, i, w, what);
		else
			d->picks[n++] = pick(d, i, w);
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
 *
 * Writers that found no chunk to take look again once `freed` moves
 * (ft_shm_freed), which a pass that freed some moves once.
 */
void drain(struct drainer *d, enum drain_what what)
{
	unsigned n, freed = 0;

	take_program_clock(d);
	d->free = 0;
	n = collect(d, what, &freed);
	for (unsigned i = 0; i < n; i++)
		if (!i || !waits(&d->picks[i - 1], &d->picks[i], what))
			freed += drain_chunk(d, d->picks[i].index, d->picks[i].word, what);
	flush(d);
	d->free += freed;
	if (freed)
		ft_shm_freed(d->shm);
}

uint64_t drain_lost_unsaid(const struct drainer *d)
{
	uint64_t all = ft_shm_u64(d->shm, atomic_load(&d->shm->lost)) - d->lost_before;

	return all > d->lost_noted ? all - d->lost_noted : 0;
}

void drain_lost_from_now(struct drainer *d)
{
	d->lost_before = ft_shm_u64(d->shm, atomic_load(&d->shm->lost));
}

/* Woken once a quarter of the chunks free after the last pass are full:
 * a pass then writes many, and the threads still find free ones while it
 * does. */
void drain_wait(struct drainer *d, uint32_t seen, unsigned timeout_ms)
{
	ft_shm_wait(d->shm, seen, d->free / 4, timeout_ms);
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

/* Events the recorder dropped though its storage stands: a remote
 * recording's queue full (a disk's failure is said otherwise). */
static const char *say_dropped(const struct datadir_info *i, char *buf, size_t len)
{
	buf[0] = '\0';
	if (i->dropped)
		snprintf(buf, len, ", %llu dropped (the stream's queue was full)",
			 (unsigned long long)i->dropped);
	return buf;
}

/* What the trace kept holds: --max-size's dropped chunks are not in it. */
void drain_say_summary(const struct drainer *d, const char *where)
{
	const struct datadir_info *i = d->dir->info;
	double seconds = (i->clock.ns[1] - i->clock.ns[0]) / 1e9;
	struct tr_counts kept = d->written;
	char size[32], missed[160], cut[192], dropped[96];

	tr_counts_sub(&kept, &d->dir->cap.counts);
	fprintf(stderr, "fntrace: recorded %llu calls, %llu events (%s) in %u thread%s "
		"over %.3f s, %llu lost%s%s%s%s%s\n",
		(unsigned long long)kept.calls, (unsigned long long)kept.events,
		tr_format_bytes(size, sizeof(size), d->dir->size), d->nr_threads,
		d->nr_threads == 1 ? "" : "s", seconds,
		(unsigned long long)(kept.lost + i->unsaid), say_dropped(i, dropped, sizeof(dropped)),
		tr_format_missed(missed, sizeof(missed), &kept), where ? " -> " : "",
		where ? where : "", drain_say_cut(d, cut, sizeof(cut)));
}
