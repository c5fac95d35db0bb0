// SPDX-License-Identifier: GPL-2.0
/*
 * A chunk's events not taken yet go to trace.dat as a chunk of their own
 * (with the time its first event is relative to), many to a write; a
 * chunk handed over is then zeroed and freed, written or not.  A chunk a
 * live thread still fills is read up to its last whole event, and
 * `consumed` remembers how far.
 */
#include "drain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
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
	struct ft_chunk head;	/* of its piece (none if head.used is 0) */
	struct tr_counts n;	/* what the piece holds */
};

static struct {
	struct batch_entry entry[BATCH];
	struct iovec iov[2 * BATCH];
	unsigned n, nr_iov;
	uint32_t bytes;		/* of the pieces' events */
	uint32_t copy[(BATCH_BYTES + FT_CHUNK_MAX) / 4];
} batch;

/* The piece [consumed, end) of c, in our byte order, into e and the
 * iovecs. */
static void take_piece(struct drainer *d, const struct ft_chunk *c, uint32_t end,
		       struct batch_entry *e)
{
	uint32_t from = ft_shm_u32(d->shm, c->consumed);
	const uint32_t *events = (const uint32_t *)(c + 1) + from / 4;

	e->head = *c;
	e->head.used = 0;
	if (end <= from)
		return;
	if (ft_shm_swapped(d->shm)) {
		uint32_t *copy = batch.copy + batch.bytes / 4;

		ft_chunk_swap(c, events, end - from, &e->head, copy);
		events = copy;
	}
	e->head.used = end - from;
	tr_count_chunk(events, e->head.used / 4, &e->n);
	d->lost_noted += e->n.lost;
	ft_chunk_state_at(d->shm, c, from, &e->head.start_time, &e->head.cpu);
	e->head.consumed = 0;
	batch.iov[batch.nr_iov++] = (struct iovec){ &e->head, sizeof(e->head) };
	batch.iov[batch.nr_iov++] = (struct iovec){ (void *)events, e->head.used };
	batch.bytes += e->head.used;
}

/* Zeroed and free again: its generation kept, which only a writer
 * taking it moves on. */
static void free_chunk(struct drainer *d, const struct batch_entry *e)
{
	struct ft_chunk *c = ft_shm_chunk(d->shm, e->chunk);

	memset(c + 1, 0, e->zero);
	c->consumed = 0;
	atomic_store_explicit(&d->shm->state[e->chunk],
			      ft_shm_u32(d->shm, ft_chunk_with_state(e->word, FT_CHUNK_FREE)),
			      memory_order_release);
}

/* The batch's pieces written (or, if trace.dat takes no more, their
 * events counted as dropped), then its chunks freed. */
static void flush(struct drainer *d)
{
	int failed = batch.nr_iov && datadir_write_chunks(d->dir, batch.iov, batch.nr_iov);

	for (unsigned k = 0; k < batch.n; k++) {
		const struct batch_entry *e = &batch.entry[k];

		if (e->head.used && failed) {
			d->dir->info->dropped += e->n.events + e->n.lost;
		} else if (e->head.used) {
			tr_counts_add(&d->written, &e->n);
			note_thread(d, &e->head);
		}
		if (e->chunk != NOT_FREED)
			free_chunk(d, e);
	}
	batch.n = batch.nr_iov = batch.bytes = 0;
}

/* What chunk i holds past `consumed` (its state word `word`, in our
 * order), into the batch; then, unless a live thread still fills it, the
 * chunk is freed once the batch is written: 1 if it will be. */
static int drain_chunk(struct drainer *d, unsigned i, uint32_t word, enum drain_what what)
{
	struct ft_chunk *c = ft_shm_chunk(d->shm, i);
	uint32_t room = ft_shm_chunk_size(d->shm) - sizeof(*c);
	int full = ft_chunk_state(word) == FT_CHUNK_FULL;
	uint32_t end = full ? ft_shm_u32(d->shm, c->used) : ft_chunk_filled(d->shm, c);
	int keep = !full && (what == DRAIN_LIVE || what == DRAIN_DISCARD);
	struct batch_entry *e;

	if (batch.n == BATCH || batch.bytes + room > BATCH_BYTES)
		flush(d);
	e = &batch.entry[batch.n++];
	*e = (struct batch_entry){ .chunk = keep ? NOT_FREED : i, .word = word };
	end = end > room ? room : end;
	e->zero = end;
	if (what != DRAIN_DISCARD)
		take_piece(d, c, end, e);
	if (keep)
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

void drain(struct drainer *d, enum drain_what what)
{
	unsigned freed = 0;

	take_program_clock(d);
	d->free = 0;
	for (unsigned i = 0; i < ft_shm_nr_chunks(d->shm); i++) {
		uint32_t word = ft_shm_u32(d->shm, atomic_load_explicit(&d->shm->state[i],
									memory_order_acquire));
		unsigned s = ft_chunk_state(word);

		if (s == FT_CHUNK_FULL || (what != DRAIN_FULL && s == FT_CHUNK_FILLING))
			freed += drain_chunk(d, i, word, what);
		else
			d->free += s == FT_CHUNK_FREE;
	}
	flush(d);
	d->free += freed;
	if (freed)
		ft_shm_freed(d->shm);
}

uint64_t drain_lost_unsaid(const struct drainer *d)
{
	uint64_t all = ft_shm_u64(d->shm, atomic_load(&d->shm->lost));

	return all > d->lost_noted ? all - d->lost_noted : 0;
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

void drain_say_summary(const struct drainer *d, const char *where)
{
	const struct datadir_info *i = d->dir->info;
	double seconds = (i->clock.ns[1] - i->clock.ns[0]) / 1e9;
	char size[32], missed[160];

	fprintf(stderr, "fntrace: recorded %llu calls, %llu events (%s) in %u thread%s "
		"over %.3f s, %llu lost%s%s%s\n",
		(unsigned long long)d->written.calls, (unsigned long long)d->written.events,
		tr_format_bytes(size, sizeof(size), d->dir->size), d->nr_threads,
		d->nr_threads == 1 ? "" : "s", seconds,
		(unsigned long long)(d->written.lost + i->unsaid),
		tr_format_missed(missed, sizeof(missed), &d->written), where ? " -> " : "",
		where ? where : "");
}
