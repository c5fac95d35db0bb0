// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot buffer (src/common/snapshot.c): a copy of every kind of
 * chunk (full, being filled, partly consumed, free), in either byte
 * order; the sequence lock and the reader's check; and a copy made while
 * a writer fills, publishes and overwrites chunks as fast as it can,
 * every copied chunk of which must be one use of its chunk, whole.
 */
#include "unit.h"
#include "common/shm.h"
#include "common/snapshot.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

static uint32_t order32(int swapped, uint32_t v)
{
	return swapped ? __builtin_bswap32(v) : v;
}

static uint64_t order64(int swapped, uint64_t v)
{
	return swapped ? __builtin_bswap64(v) : v;
}

/* Chunk i of shm: n entries of function id, each 10 ticks after the
 * one before, from start_time 1000; its state word; consumed bytes
 * taken. */
static void fill(struct ft_shm *shm, int swapped, unsigned i, uint32_t id, unsigned n,
		 uint32_t state, uint32_t consumed)
{
	struct ft_chunk *c = ft_shm_chunk(shm, i);
	uint32_t *w = (uint32_t *)(c + 1);

	c->pid = order32(swapped, 100);
	c->tid = order32(swapped, 100 + i);
	c->seq = order64(swapped, 7);
	c->start_time = order64(swapped, 1000);
	c->cpu = order32(swapped, 1);
	c->consumed = order32(swapped, consumed);
	c->used = order32(swapped, ft_chunk_state(state) == FT_CHUNK_FULL ? n * 4 : 0);
	for (unsigned k = 0; k < n; k++)
		w[k] = order32(swapped, ft_entry_word(id, 10));
	atomic_store(&shm->state[i], order32(swapped, state));
}

static void test_kinds(int swapped)
{
	const char *name = swapped ? "swapped" : "native";
	struct ft_shm *ring, *copy;
	struct ft_snap *snap;
	const struct ft_chunk *c;
	char what[128];
	int fd, snap_fd;

	if (ft_shm_create(1024, FT_SHM_OVERWRITE, swapped, &fd, &ring) ||
	    ft_snap_create(ring, &snap_fd, &snap)) {
		CHECK("the buffers are made", 0);
		return;
	}
	fill(ring, swapped, 0, 5, 6, FT_CHUNK_FULL | FT_CHUNK_OLD | 5 * FT_CHUNK_GEN_ONE, 0);
	fill(ring, swapped, 1, 6, 3, FT_CHUNK_FILLING, 0);
	fill(ring, swapped, 3, 7, 6, FT_CHUNK_FULL, 8);
	copy = ft_snap_shm(snap);
	CHECK("the copy has the ring's layout", ft_snap_fits(snap, ring));
	CHECK("a lock is taken once", ft_snap_lock(snap) == 0 && ft_snap_lock(snap) == -1);
	ft_snap_copy(snap, ring);
	ft_snap_unlock(snap);

	snprintf(what, sizeof(what), "%s: full, filling and consumed chunks copied, free not", name);
	CHECK(what, order32(swapped, copy->state[0]) == FT_CHUNK_FULL &&
		    order32(swapped, copy->state[1]) == FT_CHUNK_FULL &&
		    order32(swapped, copy->state[2]) == FT_CHUNK_FREE &&
		    order32(swapped, copy->state[3]) == FT_CHUNK_FULL);
	snprintf(what, sizeof(what), "%s: the ring's chunks as they were, mark and generation", name);
	CHECK(what, order32(swapped, ring->state[0]) ==
		    (FT_CHUNK_FULL | FT_CHUNK_OLD | 5 * FT_CHUNK_GEN_ONE) &&
		    order32(swapped, ring->state[1]) == FT_CHUNK_FILLING);
	c = ft_shm_chunk(copy, 0);
	snprintf(what, sizeof(what), "%s: a full chunk whole, its header kept", name);
	CHECK(what, order32(swapped, c->used) == 24 && order32(swapped, c->tid) == 100 &&
		    !memcmp(c + 1, ft_shm_chunk(ring, 0) + 1, 24));
	c = ft_shm_chunk(copy, 1);
	snprintf(what, sizeof(what), "%s: a chunk being filled, to its last event", name);
	CHECK(what, order32(swapped, c->used) == 12);
	c = ft_shm_chunk(copy, 3);
	snprintf(what, sizeof(what), "%s: a consumed part left out, the rest timed from it", name);
	CHECK(what, order32(swapped, c->used) == 16 && order32(swapped, c->consumed) == 0 &&
		    order64(swapped, c->start_time) == 1020);
	snprintf(what, sizeof(what), "%s: the header counts", name);
	CHECK(what, ft_snap_u32(snap, snap->chunks) == 3 && ft_snap_u32(snap, snap->skipped) == 0 &&
		    ft_snap_u32(snap, snap->number) == 1 && ft_snap_seq(snap) == 2);
	close(fd);
	close(snap_fd);
}

static void test_reader(void)
{
	struct ft_shm *ring;
	struct ft_snap *snap, *again;
	char lines[1024];
	int fd, snap_fd;
	int64_t seq;

	if (ft_shm_create(1024, FT_SHM_OVERWRITE, 0, &fd, &ring) ||
	    ft_snap_create(ring, &snap_fd, &snap))
		return;
	seq = ft_snap_read_begin(snap, getpid());
	CHECK("a reader of a whole snapshot gets its seq", seq == 0);
	CHECK("... and is seen", ft_snap_wait_reader(snap, 10) == 1);
	CHECK("... whole if nothing was taken meanwhile", ft_snap_read_end(snap, (uint32_t)seq));
	CHECK("... and gone after", ft_snap_wait_reader(snap, 10) == 0);
	seq = ft_snap_read_begin(snap, getpid());
	ft_snap_lock(snap);
	CHECK("a reader while one is taken is told to wait", ft_snap_read_begin(snap, getpid()) == -1);
	ft_snap_clear(snap);
	ft_snap_unlock(snap);
	CHECK("a copy a snapshot overwrote is void", !ft_snap_read_end(snap, (uint32_t)seq));
	snap->reason = FT_SNAP_CONTROL;
	snap->asked_by = 4242;
	ft_snap_info_lines(snap, lines, sizeof(lines));
	CHECK("info says why and who asked", strstr(lines, "snapshot_reason: control\n") &&
					      strstr(lines, "snapshot_asked_by: 4242\n"));
	again = ft_snap_map(snap_fd);
	CHECK("its fd maps the same buffer", again && again->asked_by == 4242 &&
					     ft_snap_fits(again, ring));
	close(fd);
	close(snap_fd);
}

/* ---- copies while a writer overwrites ---- */

/*
 * The writer runs in a signal handler of the copying thread, a step at
 * each tick of a fast timer: so it runs in the middle of copies, as a
 * program's thread does while the control thread is preempted, at any
 * point of them.  A step takes a chunk (a free or superseded one, else
 * the oldest full one: overwrite) and zeroes it, or fills it, or
 * publishes it and marks the one it published before superseded.
 */
static struct ft_shm *race_ring;
static int race_chunk = -1, race_phase;
static uint64_t race_seq;

/* Every event of a use of a chunk carries an id of that use: its seq. */
static uint32_t id_of(uint64_t seq)
{
	return (uint32_t)(seq % 1000) + 1;
}

/* As the runtime takes a chunk (src/core/buffer.c): a free or superseded
 * one, searched from after the last one taken (a search from the first
 * chunk would take the same two again and again), else the oldest full
 * one; its generation moved on. */
static int claim(struct ft_shm *shm, unsigned i, uint32_t word)
{
	uint32_t next = ft_chunk_with_state(word + FT_CHUNK_GEN_ONE, FT_CHUNK_FILLING);

	return atomic_compare_exchange_strong(&shm->state[i], &word, next & ~FT_CHUNK_OLD);
}

static unsigned race_hand;

static int take_chunk(struct ft_shm *shm)
{
	uint64_t oldest = UINT64_MAX;
	int best = -1;

	for (unsigned n = 0; n < shm->nr_chunks; n++) {
		unsigned i = (race_hand + n) % shm->nr_chunks;
		uint32_t word = atomic_load(&shm->state[i]);

		if ((ft_chunk_state(word) == FT_CHUNK_FREE ||
		     (ft_chunk_state(word) == FT_CHUNK_FULL && (word & FT_CHUNK_OLD))) &&
		    claim(shm, i, word)) {
			race_hand = i + 1;
			return (int)i;
		}
	}
	for (unsigned i = 0; i < shm->nr_chunks; i++)
		if (ft_chunk_state(atomic_load(&shm->state[i])) == FT_CHUNK_FULL &&
		    ft_shm_chunk(shm, i)->order < oldest) {
			oldest = ft_shm_chunk(shm, i)->order;
			best = (int)i;
		}
	return best >= 0 && claim(shm, best, atomic_load(&shm->state[best])) ? best : -1;
}

/* As the runtime publishes a chunk: FULL, and the one published before
 * marked superseded if it is still that use of it, full or being read. */
static int race_last = -1;
static uint32_t race_last_word;

static void publish(struct ft_shm *shm, unsigned i)
{
	uint32_t word = ft_chunk_with_state(atomic_load(&shm->state[i]), FT_CHUNK_FULL);
	_Atomic uint32_t *last = race_last >= 0 ? &shm->state[race_last] : NULL;
	uint32_t now = last ? atomic_load(last) : 0;

	atomic_store_explicit(&shm->state[i], word, memory_order_release);
	while (last && (now & ~(FT_CHUNK_OLD | 1u)) == race_last_word && !(now & FT_CHUNK_OLD) &&
	       !atomic_compare_exchange_weak(last, &now, now | FT_CHUNK_OLD))
		;
	race_last = (int)i;
	race_last_word = word;
}

/* A new use: zeroed, then its header. */
static void start_use(struct ft_chunk *c, unsigned words)
{
	_Atomic uint32_t *w = (_Atomic uint32_t *)(c + 1);

	for (unsigned k = 0; k < words; k++)
		atomic_store_explicit(&w[k], 0, memory_order_relaxed);
	c->tid = 1;
	c->seq = ++race_seq;
	c->start_time = race_seq * 100000;
	c->used = 0;
}

/* The words of events the use seq of a chunk of `words` words gets. */
static unsigned fill_of(uint64_t seq, unsigned words)
{
	return words / 2 + seq % (words / 2);
}

/* Steps 1 to RACE_PARTS fill a part each: a copy may find a chunk being
 * filled with some of its events, as a thread's. */
#define RACE_PARTS 4

static void writer_step(int sig)
{
	struct ft_chunk *c = race_chunk >= 0 ? ft_shm_chunk(race_ring, race_chunk) : NULL;
	unsigned words = (race_ring->chunk_size - sizeof(*c)) / 4;
	unsigned fill = fill_of(race_seq, words);
	_Atomic uint32_t *w = c ? (_Atomic uint32_t *)(c + 1) : NULL;

	if (race_phase == 0 && (race_chunk = take_chunk(race_ring)) >= 0) {
		start_use(ft_shm_chunk(race_ring, race_chunk), words);
		race_phase = 1;
	} else if (race_phase >= 1 && race_phase <= RACE_PARTS) {
		for (unsigned k = fill * (race_phase - 1) / RACE_PARTS;
		     k < fill * race_phase / RACE_PARTS; k++)
			atomic_store_explicit(&w[k], ft_entry_word(id_of(c->seq), 1),
					      memory_order_release);
		race_phase++;
	} else if (race_phase == RACE_PARTS + 1) {
		c->used = fill * 4;
		c->order = atomic_fetch_add(&race_ring->order, 1) + 1;
		publish(race_ring, race_chunk);
		race_phase = 0;
	}
}

/* The ring as copies leave it: none READING, and every full chunk but
 * the newest still marked superseded, marks set during a copy kept. */
static int ring_marks_kept(const struct ft_shm *ring)
{
	unsigned newest = 0;

	for (unsigned i = 0; i < ring->nr_chunks; i++) {
		uint32_t word = atomic_load(&ring->state[i]);

		if (ft_chunk_state(word) == FT_CHUNK_READING)
			return 0;
		newest += ft_chunk_state(word) == FT_CHUNK_FULL && !(word & FT_CHUNK_OLD);
	}
	return newest <= 1;
}

/* Each chunk of the copy is one use: its header's, every event the id
 * of its seq. */
static int copy_consistent(const struct ft_shm *copy)
{
	for (unsigned i = 0; i < copy->nr_chunks; i++) {
		const struct ft_chunk *c = ft_shm_chunk(copy, i);
		const uint32_t *w = (const uint32_t *)(c + 1);

		if (copy->state[i] != FT_CHUNK_FULL)
			continue;
		if (c->start_time != c->seq * 100000 || !c->used)
			return 0;
		for (unsigned k = 0; k < c->used / 4; k++)
			if (w[k] != ft_entry_word(id_of(c->seq), 1))
				return 0;
	}
	return 1;
}

static const struct ft_chunk *copied_use(const struct ft_shm *copy, uint64_t seq)
{
	for (unsigned i = 0; i < copy->nr_chunks; i++)
		if (copy->state[i] == FT_CHUNK_FULL && ft_shm_chunk(copy, i)->seq == seq)
			return ft_shm_chunk(copy, i);
	return NULL;
}

/* A chunk the copy holds part of is its stream's last: were the next one
 * there too, the reader could not tell the part's end was missing.  (Of
 * copies with no mending, 1 run in 5 of this test had one that was not.) */
static int no_hidden_cut(const struct ft_shm *copy)
{
	unsigned words = (copy->chunk_size - sizeof(struct ft_chunk)) / 4;

	for (unsigned i = 0; i < copy->nr_chunks; i++) {
		const struct ft_chunk *c = ft_shm_chunk(copy, i);

		if (copy->state[i] == FT_CHUNK_FULL && c->used != fill_of(c->seq, words) * 4 &&
		    copied_use(copy, c->seq + 1))
			return 0;
	}
	return 1;
}

static void test_race(void)
{
	struct itimerval fast = { { 0, 20 }, { 0, 20 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa = { .sa_handler = writer_step };
	struct ft_snap *snap;
	int fd, snap_fd, ok = 1, said = 1, copied = 0, rounds = 0, uncut = 1;

	if (ft_shm_create(1024, FT_SHM_OVERWRITE, 0, &fd, &race_ring) ||
	    ft_snap_create(race_ring, &snap_fd, &snap))
		return;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &fast, NULL);
	while (atomic_load(&race_ring->order) < race_ring->nr_chunks)
		;		/* every chunk used once, most full */
	for (; rounds < 20000 && race_seq < 3000; rounds++) {
		ft_snap_lock(snap);
		ft_snap_copy(snap, race_ring);
		ft_snap_unlock(snap);
		ok &= copy_consistent(ft_snap_shm(snap));
		uncut &= no_hidden_cut(ft_snap_shm(snap));
		copied += ft_snap_u32(snap, snap->chunks) > 0;
		said &= ft_snap_u32(snap, snap->chunks) > 0 || ft_snap_u32(snap, snap->skipped) > 0 ||
			ft_snap_u32(snap, snap->overtaken) > 0;
	}
	setitimer(ITIMER_REAL, &off, NULL);
	CHECK("copies while a writer overwrites: every chunk one use, whole", ok);
	/* A copy slower than the writer's turn (a loaded machine) may find
	 * every chunk it copied taken meanwhile: then it says so. */
	CHECK("... each holds events, or says which chunks the writer took, or that it "
	      "went round the ring", said);
	CHECK("... most of them events", copied * 2 >= rounds);
	CHECK("... and leave the ring's chunks full again, superseded marks kept",
	      ring_marks_kept(race_ring));
	CHECK("... a chunk copied in part, being filled, is its stream's last", uncut);
	close(fd);
	close(snap_fd);
}

/* A writer that goes round the whole ring at each tick: a use of a
 * chunk is a take, RACE_PARTS fills and a publish. */
static void lapping_step(int sig)
{
	for (unsigned n = 0; n < race_ring->nr_chunks; n++)
		for (unsigned step = 0; step < RACE_PARTS + 2; step++)
			writer_step(sig);
}

/* A copy the writers went round the ring during says so: in its header
 * and in its lines of info. */
static void test_overtaken(void)
{
	/* A turn takes the handler hundreds of microseconds: a tick each
	 * millisecond leaves the copies time to run between them. */
	struct itimerval slow = { { 0, 1000 }, { 0, 1000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa = { .sa_handler = lapping_step };
	struct ft_snap *snap;
	char info[1024], want[64];
	uint32_t overtaken = 0;
	int fd, snap_fd;

	race_chunk = -1;
	race_phase = 0;
	race_last = -1;
	if (ft_shm_create(1024, FT_SHM_OVERWRITE, 0, &fd, &race_ring) ||
	    ft_snap_create(race_ring, &snap_fd, &snap))
		return;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &slow, NULL);
	for (int tries = 0; tries < 100000 && !overtaken; tries++) {
		ft_snap_lock(snap);
		ft_snap_copy(snap, race_ring);
		ft_snap_unlock(snap);
		overtaken = ft_snap_u32(snap, snap->overtaken);
	}
	setitimer(ITIMER_REAL, &off, NULL);
	CHECK("a copy the writer went round the ring during says how many chunks it published",
	      overtaken >= race_ring->nr_chunks);
	ft_snap_info_lines(snap, info, sizeof(info));
	snprintf(want, sizeof(want), "\nsnapshot_overtaken: %u\n", overtaken);
	CHECK("... in its lines of info", strstr(info, want) != NULL);
	ft_snap_copy(snap, race_ring);
	ft_snap_info_lines(snap, info, sizeof(info));
	CHECK("a copy with no writer says none", !ft_snap_u32(snap, snap->overtaken) &&
	      !strstr(info, "snapshot_overtaken"));
	close(fd);
	close(snap_fd);
}

int main(void)
{
	test_kinds(0);
	test_kinds(1);
	test_reader();
	test_race();
	test_overtaken();
	return unit_done();
}
