// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot buffer (layout and protocol in snapshot.h), shared by the
 * runtime, which takes snapshots, and the recorder, which writes them out
 * and takes the last one once the program has ended.
 */
#include "snapshot.h"
#include "shm.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(struct ft_snap) <= FT_SNAP_HEAD, "the header fits its page");
_Static_assert(FT_SNAP_HEAD % _Alignof(struct ft_shm) == 0, "the ring's copy is aligned");
_Static_assert(offsetof(struct ft_snap, taken_ns) % 8 == 0, "the same layout on 32-bit");

/* ---- the header, in the memory's byte order ---- */

static int swapped(const struct ft_snap *s)
{
	return s->word_order == __builtin_bswap32(FT_WORD_ORDER);
}

uint32_t ft_snap_u32(const struct ft_snap *s, uint32_t v)
{
	return ft_order32(swapped(s), v);
}

uint64_t ft_snap_u64(const struct ft_snap *s, uint64_t v)
{
	return ft_order64(swapped(s), v);
}

void ft_snap_set32(const struct ft_snap *s, uint32_t *field, uint32_t v)
{
	*field = ft_order32(swapped(s), v);
}

static void ft_snap_set64(const struct ft_snap *s, uint64_t *field, uint64_t v)
{
	*field = ft_order64(swapped(s), v);
}

uint32_t ft_snap_seq(const struct ft_snap *s)
{
	return ft_snap_u32(s, atomic_load_explicit(&s->seq, memory_order_acquire));
}

struct ft_shm *ft_snap_shm(const struct ft_snap *s)
{
	return (struct ft_shm *)((char *)s + FT_SNAP_HEAD);
}

size_t ft_snap_size(const struct ft_snap *s)
{
	return FT_SNAP_HEAD + ft_shm_size(ft_snap_shm(s));
}

int ft_snap_fits(const struct ft_snap *s, const struct ft_shm *ring)
{
	const struct ft_shm *copy = ft_snap_shm(s);

	return copy->nr_chunks == ring->nr_chunks && copy->chunk_size == ring->chunk_size &&
	       copy->chunks_offset == ring->chunks_offset && copy->word_order == ring->word_order;
}

/* ---- making and mapping one ---- */

/* The ring's header as it describes the chunks; its counters start at 0. */
static void copy_layout(struct ft_shm *copy, const struct ft_shm *ring)
{
	memcpy(copy->magic, ring->magic, sizeof(copy->magic));
	copy->version = ring->version;
	copy->nr_chunks = ring->nr_chunks;
	copy->chunk_size = ring->chunk_size;
	copy->chunks_offset = ring->chunks_offset;
	copy->word_order = ring->word_order;
}

int ft_snap_create(const struct ft_shm *ring, int *fd, struct ft_snap **out)
{
	size_t size = FT_SNAP_HEAD + ft_shm_size(ring);
	struct ft_snap *s;

	*fd = memfd_create("fntrace-snapshot", MFD_CLOEXEC);
	if (*fd < 0)
		return -1;
	if (ftruncate(*fd, size) ||
	    (s = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0)) == MAP_FAILED) {
		close(*fd);
		*fd = -1;
		return -1;
	}
	/* Every page written once now: the first write to fresh memory is
	 * the slow one (a fault, and on a virtual machine often the host's
	 * too: 600 ms for 64 MB where a copy then takes 20), and it belongs
	 * to making the buffer, not to the copy. */
	memset(s, 0, size);
	memcpy(s->magic, FT_SNAP_MAGIC, sizeof(s->magic));
	s->word_order = ring->word_order;
	ft_snap_set32(s, &s->version, FT_SNAP_VERSION);
	copy_layout(ft_snap_shm(s), ring);
	*out = s;
	return 0;
}

struct ft_snap *ft_snap_map(int fd)
{
	/* aligned as the ring's header, which FT_SNAP_HEAD bytes in keeps */
	_Alignas(struct ft_shm) char head[FT_SNAP_HEAD + sizeof(struct ft_shm)];
	const struct ft_snap *h = (const struct ft_snap *)head;
	void *p;

	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    memcmp(h->magic, FT_SNAP_MAGIC, sizeof(h->magic)) ||
	    ft_snap_u32(h, h->version) != FT_SNAP_VERSION || !ft_shm_nr_chunks(ft_snap_shm(h)))
		return NULL;
	p = mmap(NULL, ft_snap_size(h), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* ---- the sequence lock, and the reader ---- */

static void futex_wake_all(_Atomic uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Asleep until *word is no longer raw (the memory's order), or ms pass. */
static void futex_wait_ms(_Atomic uint32_t *word, uint32_t raw, unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };

	syscall(SYS_futex, word, FUTEX_WAIT, raw, &t, NULL, 0);
}

static uint64_t now_ns(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

int ft_snap_wait_reader(struct ft_snap *s, unsigned timeout_ms)
{
	uint64_t end = now_ns(CLOCK_MONOTONIC) + (uint64_t)timeout_ms * 1000000;

	for (;;) {
		uint32_t raw = atomic_load(&s->reader), pid = ft_snap_u32(s, raw);
		uint64_t now = now_ns(CLOCK_MONOTONIC);

		if (!pid)
			return 0;
		if (kill((pid_t)pid, 0) && errno == ESRCH) {
			atomic_compare_exchange_strong(&s->reader, &raw, 0);
			continue;
		}
		if (now >= end)
			return 1;
		futex_wait_ms(&s->reader, raw, (unsigned)((end - now + 999999) / 1000000));
	}
}

int ft_snap_lock(struct ft_snap *s)
{
	uint32_t raw = atomic_load(&s->seq), seq = ft_snap_u32(s, raw);

	if (seq & 1)
		return -1;
	return atomic_compare_exchange_strong(&s->seq, &raw, ft_snap_u32(s, seq + 1)) ? 0 : -1;
}

void ft_snap_unlock(struct ft_snap *s)
{
	uint32_t seq = ft_snap_seq(s);

	atomic_store_explicit(&s->seq, ft_snap_u32(s, seq + 1), memory_order_release);
	futex_wake_all(&s->seq);
}

int64_t ft_snap_read_begin(struct ft_snap *s, uint32_t pid)
{
	uint32_t seq;

	atomic_store(&s->reader, ft_snap_u32(s, pid));
	seq = ft_snap_seq(s);
	if (!(seq & 1))
		return seq;
	atomic_store(&s->reader, 0);
	futex_wake_all(&s->reader);
	return -1;
}

int ft_snap_read_end(struct ft_snap *s, uint32_t seq)
{
	int whole;

	atomic_thread_fence(memory_order_acquire);
	whole = ft_snap_seq(s) == seq;
	atomic_store(&s->reader, 0);
	futex_wake_all(&s->reader);
	return whole;
}

/* ---- copying the ring ---- */

/* Which use of a chunk this is: taken again, its thread, context or seq
 * change; published, its order. */
struct chunk_use {
	uint32_t pid, tid, context;
	uint64_t seq, order;
};

static struct chunk_use use_of(const struct ft_chunk *c)
{
	const volatile struct ft_chunk *v = c;

	atomic_thread_fence(memory_order_acquire);
	return (struct chunk_use){ v->pid, v->tid, v->context, v->seq, v->order };
}

static int same_use(struct chunk_use a, struct chunk_use b)
{
	return a.pid == b.pid && a.tid == b.tid && a.context == b.context && a.seq == b.seq &&
	       a.order == b.order;
}

/* Bytes of whole events at the start of n bytes of words: a copy made
 * while its chunk was zeroed for reuse (a writer in overwrite mode took
 * it and has not written its header yet) ends where they begin. */
static uint32_t whole_events(const struct ft_shm *shm, const uint32_t *w, uint32_t bytes)
{
	uint32_t i = 0, n = bytes / 4;

	while (i < n) {
		int len = ft_event_words(ft_shm_u32(shm, w[i]));

		if (len < 0 || i + len > n)
			break;
		i += len;
	}
	return i * 4;
}

/*
 * Events [from, to) of ring chunk c into d, as a chunk of their own: the
 * time and CPU its first event is relative to, its length in `used` (with
 * trim, the whole events the copy holds).  0 if it holds none.
 */
static uint32_t copy_piece(const struct ft_shm *ring, const struct ft_chunk *c,
			   struct ft_chunk *d, uint32_t from, uint32_t to, int trim)
{
	struct ft_chunk at;
	uint32_t used;

	if (to <= from)
		return 0;
	*d = *c;
	memcpy(d + 1, (const char *)(c + 1) + from, to - from);
	used = trim ? whole_events(ring, (const uint32_t *)(d + 1), to - from) : to - from;
	ft_chunk_state_at(ring, c, from, &at);
	d->start_time = ft_shm_u64(ring, at.start_time);
	d->cpu = ft_shm_u32(ring, at.cpu);
	d->depth = ft_shm_u32(ring, at.depth);
	d->used = ft_shm_u32(ring, used);
	d->consumed = 0;
	return used;
}

static uint32_t room(const struct ft_shm *ring)
{
	return ft_shm_u32(ring, ring->chunk_size) - sizeof(struct ft_chunk);
}

/* A full chunk, marked READING meanwhile (shm.h): writers in overwrite
 * mode take another, and its events stay as they are (no walk needed).
 * -1 if it was not FULL by then, or was taken from under the mark (a
 * recorder draining the ring frees full chunks without looking for it). */
static int64_t copy_full(struct ft_shm *ring, unsigned i, struct ft_chunk *d)
{
	const struct ft_chunk *c = ft_shm_chunk(ring, i);
	uint32_t reading, used, n;

	if (!ft_chunk_start_reading(ring, i, &reading))
		return -1;
	used = ft_shm_u32(ring, c->used);
	n = copy_piece(ring, c, d, ft_shm_u32(ring, c->consumed),
		       used > room(ring) ? room(ring) : used, 0);
	return ft_chunk_end_reading(ring, i, reading) ? -1 : (int64_t)n;
}

/* A chunk a thread fills (or someone else reads), up to its last whole
 * event: -1 if it became another use of the chunk meanwhile. */
static int64_t copy_filling(const struct ft_shm *ring, unsigned i, struct ft_chunk *d)
{
	const struct ft_chunk *c = ft_shm_chunk(ring, i);
	struct chunk_use before = use_of(c);
	uint32_t to = ft_chunk_filled(ring, c), n;

	n = copy_piece(ring, c, d, ft_shm_u32(ring, c->consumed), to, 1);
	return same_use(before, use_of(c)) ? (int64_t)n : -1;
}

enum copied { COPIED_NONE, COPIED_WHOLE, COPIED_PIECE, COPIED_SKIPPED };

/* Chunk i of the ring into chunk i of the copy: whole (full, or being
 * read: full too), a piece of one still being filled, none (no events),
 * or skipped (it changed hands each time it was tried). */
static enum copied copy_chunk(struct ft_shm *ring, struct ft_shm *copy, unsigned i)
{
	struct ft_chunk *d = ft_shm_chunk(copy, i);

	for (int tries = 0; tries < 3; tries++) {
		unsigned state = ft_chunk_state(ft_shm_u32(ring, atomic_load(&ring->state[i])));
		int64_t n;

		if (state == FT_CHUNK_FREE)
			return COPIED_NONE;
		n = state == FT_CHUNK_FULL ? copy_full(ring, i, d) : copy_filling(ring, i, d);
		if (n == 0)
			return COPIED_NONE;
		if (n > 0)
			return state == FT_CHUNK_FILLING ? COPIED_PIECE : COPIED_WHOLE;
	}
	return COPIED_SKIPPED;
}

/* The chunks of the copy that follow piece p in its stream, dropped:
 * how many. */
static uint32_t drop_after(struct ft_shm *copy, const struct ft_chunk *p)
{
	struct ft_chunk_place piece = ft_chunk_place(copy, p);
	uint32_t dropped = 0;

	for (unsigned j = 0; j < ft_shm_nr_chunks(copy); j++) {
		struct ft_chunk_place c = ft_chunk_place(copy, ft_shm_chunk(copy, j));

		if (ft_chunk_state(ft_shm_u32(copy, atomic_load(&copy->state[j]))) == FT_CHUNK_FREE ||
		    !ft_same_stream(&c, &piece) || c.seq <= piece.seq)
			continue;
		atomic_store(&copy->state[j], ft_shm_u32(copy, FT_CHUNK_FREE));
		dropped++;
	}
	return dropped;
}

/*
 * Piece i of a chunk its thread was filling, after the pass: the thread
 * may have finished it and gone on in another chunk the pass copied
 * later.  Both kept, the piece's end would be missing with nothing to
 * tell (their numbers follow on), and a reader would pair an entry before
 * the gap with an exit after it.  So the chunk is copied again whole if
 * it is still that use, and else what follows it is dropped (and the
 * piece too if a copy again failed half-way): how many chunks were.
 */
static uint32_t mend_piece(struct ft_shm *ring, struct ft_shm *copy, unsigned i)
{
	const struct ft_chunk *c = ft_shm_chunk(ring, i);
	struct ft_chunk *d = ft_shm_chunk(copy, i), piece = *d;
	unsigned state = ft_chunk_state(ft_shm_u32(ring, atomic_load(&ring->state[i])));
	struct chunk_use now = use_of(c);
	int same = now.pid == piece.pid && now.tid == piece.tid &&
		   now.context == piece.context && now.seq == piece.seq;

	if (same && state == FT_CHUNK_FILLING)
		return 0;		/* still its stream's newest */
	if (same && state == FT_CHUNK_FULL) {
		if (copy_full(ring, i, d) > 0)
			return 0;
		/* Tried again and failed: the piece may be half overwritten. */
		atomic_store(&copy->state[i], ft_shm_u32(copy, FT_CHUNK_FREE));
		return 1 + drop_after(copy, &piece);
	}
	return drop_after(copy, &piece);
}

/* A copy slower than the writers' turn of the ring (its thread kept off
 * the CPU) may find chunk after chunk taken anew before it comes to
 * them: a thread's whole window can go without a gap in what is left to
 * show it.  How many chunks were published meanwhile, if that many. */
static uint32_t overtaken(const struct ft_shm *ring, uint64_t before)
{
	uint64_t during = ft_shm_u64(ring, atomic_load(&ring->order)) - before;

	return during >= ft_shm_nr_chunks(ring) ? (uint32_t)(during > UINT32_MAX ? UINT32_MAX : during)
						 : 0;
}

void ft_snap_copy(struct ft_snap *s, struct ft_shm *ring)
{
	struct ft_shm *copy = ft_snap_shm(s);
	uint64_t start = now_ns(CLOCK_MONOTONIC), published = ft_shm_u64(ring, atomic_load(&ring->order));
	uint32_t chunks = 0, skipped = 0;

	ft_snap_set64(s, &s->lost, ft_shm_u64(ring, atomic_load(&ring->lost)));
	ft_snap_set64(s, &s->published, published);
	for (unsigned i = 0; i < ft_shm_nr_chunks(ring); i++) {
		enum copied n = copy_chunk(ring, copy, i);

		chunks += n == COPIED_WHOLE || n == COPIED_PIECE;
		skipped += n == COPIED_SKIPPED;
		atomic_store(&copy->state[i], ft_shm_u32(copy, n == COPIED_WHOLE ? FT_CHUNK_FULL :
						       n == COPIED_PIECE ? FT_CHUNK_FILLING :
						       FT_CHUNK_FREE));
	}
	for (unsigned i = 0; i < ft_shm_nr_chunks(ring); i++) {
		uint32_t dropped;

		if (ft_chunk_state(ft_shm_u32(copy, atomic_load(&copy->state[i]))) != FT_CHUNK_FILLING)
			continue;
		atomic_store(&copy->state[i], ft_shm_u32(copy, FT_CHUNK_FULL));
		dropped = mend_piece(ring, copy, i);
		chunks -= dropped;
		skipped += dropped;
	}
	/* The chunks held READING are the writers' again: one that found
	 * none to take looks again. */
	ft_shm_freed(ring);
	memcpy(&copy->clock, &ring->clock, sizeof(copy->clock));
	atomic_store(&copy->clock.seq, 0);
	ft_snap_set32(s, &s->number, ft_snap_u32(s, s->number) + 1);
	ft_snap_set32(s, &s->chunks, chunks);
	ft_snap_set32(s, &s->skipped, skipped);
	ft_snap_set32(s, &s->overtaken, overtaken(ring, published));
	/* Taken when the copy ends: no event in it is later. */
	ft_snap_set64(s, &s->taken_ns, now_ns(CLOCK_MONOTONIC));
	ft_snap_set64(s, &s->realtime_ns, now_ns(CLOCK_REALTIME));
	ft_snap_set64(s, &s->copy_ns, ft_snap_u64(s, s->taken_ns) - start);
}

void ft_snap_clear(struct ft_snap *s)
{
	struct ft_shm *copy = ft_snap_shm(s);

	for (unsigned i = 0; i < ft_shm_nr_chunks(copy); i++)
		atomic_store(&copy->state[i], 0);
	ft_snap_set32(s, &s->reason, FT_SNAP_NONE);
	ft_snap_set32(s, &s->chunks, 0);
}

/* ---- what info says ---- */

static const char *ft_snap_reason_name(unsigned reason)
{
	static const char *const names[FT_SNAP_REASONS] = {
		[FT_SNAP_NONE] = "none",
		[FT_SNAP_CONTROL] = "control",
		[FT_SNAP_PROGRAM] = "program",
		[FT_SNAP_END] = "end",
		[FT_SNAP_STOPPED] = "stopped",
		[FT_SNAP_CRASH] = "crash",
	};

	return reason < FT_SNAP_REASONS ? names[reason] : "none";
}

/* A text field, which the memory may not end. */
static const char *text_of(const char *field, size_t size, char *buf)
{
	memcpy(buf, field, size);
	buf[size - 1] = '\0';
	return buf;
}

int ft_snap_info_lines(const struct ft_snap *s, char *buf, size_t len)
{
	char why[sizeof(s->why)], overtaken[48] = "";

	text_of(s->why, sizeof(s->why), why);
	if (ft_snap_u32(s, s->overtaken))
		snprintf(overtaken, sizeof(overtaken), "snapshot_overtaken: %u\n",
			 ft_snap_u32(s, s->overtaken));
	return snprintf(buf, len,
			"snapshot: %u\nsnapshot_reason: %s\nsnapshot_asked_by: %u\n"
			"snapshot_taken_by: %u\nsnapshot_taken: %llu %llu\n"
			"snapshot_copy: %llu %u %u\nsnapshot_chunk_size: %u\nsnapshot_lost: %llu\n"
			"snapshot_published: %llu\n%s%s%s%s",
			ft_snap_u32(s, s->number), ft_snap_reason_name(ft_snap_u32(s, s->reason)),
			ft_snap_u32(s, s->asked_by), ft_snap_u32(s, s->taken_by),
			(unsigned long long)ft_snap_u64(s, s->taken_ns),
			(unsigned long long)ft_snap_u64(s, s->realtime_ns),
			(unsigned long long)ft_snap_u64(s, s->copy_ns), ft_snap_u32(s, s->chunks),
			ft_snap_u32(s, s->skipped), ft_shm_u32(ft_snap_shm(s), ft_snap_shm(s)->chunk_size),
			(unsigned long long)ft_snap_u64(s, s->lost),
			(unsigned long long)ft_snap_u64(s, s->published),
			overtaken, *why ? "snapshot_why: " : "", why, *why ? "\n" : "");
}
