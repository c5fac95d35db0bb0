// SPDX-License-Identifier: GPL-2.0
/*
 * The buffers' shared memory: a header, the chunk states, then the chunks,
 * each on a page boundary.  Everything in it is in the traced program's
 * byte order; a reader of the other order swaps each word it reads.
 */
#include "shm.h"

#include <limits.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void write_header(struct ft_shm *shm, unsigned n, size_t chunk, size_t head,
			 unsigned flags, int swapped)
{
	memcpy(shm->magic, FT_SHM_MAGIC, sizeof(shm->magic));
	shm->version = ft_order32(swapped, FT_SHM_VERSION);
	shm->nr_chunks = ft_order32(swapped, n);
	shm->chunk_size = ft_order32(swapped, chunk);
	shm->chunks_offset = ft_order32(swapped, head);
	shm->flags = ft_order32(swapped, flags);
	shm->word_order = ft_order32(swapped, FT_WORD_ORDER);
}

/* The largest power of two from FT_CHUNK_MIN to FT_CHUNK_MAX that still
 * makes FT_CHUNKS chunks. */
size_t ft_shm_chunk_size_for(unsigned size_kb)
{
	uint64_t share = (uint64_t)size_kb * 1024 / FT_CHUNKS;
	size_t size = FT_CHUNK_MIN;

	while (size < FT_CHUNK_MAX && size * 2 <= share)
		size *= 2;
	return size;
}

int ft_shm_create(unsigned size_kb, unsigned flags, int swapped, int *fd, struct ft_shm **out)
{
	size_t chunk = ft_shm_chunk_size_for(size_kb);
	unsigned n = (uint64_t)size_kb * 1024 / chunk;
	size_t head, size;
	struct ft_shm *shm;

	n = n < 4 ? 4 : n;
	head = (sizeof(*shm) + n * sizeof(uint32_t) + 4095) & ~(size_t)4095;
	size = head + (size_t)n * chunk;
	*fd = memfd_create("fntrace-buffers", MFD_CLOEXEC);
	if (*fd < 0)
		return -1;
	if (ftruncate(*fd, size) ||
	    (shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0)) == MAP_FAILED) {
		close(*fd);
		return -1;
	}
	write_header(shm, n, chunk, head, flags, swapped);
	*out = shm;
	return 0;
}

unsigned ft_shm_nr_chunks(const struct ft_shm *shm)
{
	return ft_shm_u32(shm, shm->nr_chunks);
}

size_t ft_shm_chunk_size(const struct ft_shm *shm)
{
	return ft_shm_u32(shm, shm->chunk_size);
}

size_t ft_shm_size(const struct ft_shm *shm)
{
	return ft_shm_u32(shm, shm->chunks_offset) +
	       (size_t)ft_shm_nr_chunks(shm) * ft_shm_chunk_size(shm);
}

int ft_shm_sane(const struct ft_shm *shm)
{
	size_t chunk = ft_shm_chunk_size(shm);
	unsigned n = ft_shm_nr_chunks(shm);

	return !memcmp(shm->magic, FT_SHM_MAGIC, sizeof(shm->magic)) &&
	       ft_shm_u32(shm, shm->version) == FT_SHM_VERSION && n &&
	       chunk >= FT_CHUNK_MIN && chunk <= FT_CHUNK_MAX && !(chunk & (chunk - 1)) &&
	       ft_shm_u32(shm, shm->chunks_offset) >= sizeof(*shm) + (uint64_t)n * 4;
}

struct ft_chunk *ft_shm_chunk(const struct ft_shm *shm, unsigned i)
{
	return (struct ft_chunk *)((char *)shm + ft_shm_u32(shm, shm->chunks_offset) +
				   (size_t)i * ft_shm_chunk_size(shm));
}

/*
 * Waking a reader only when it sleeps, and only once it has something
 * worth waking for, without losing a wake.  A reader says from which
 * `published` on it wants waking (wake_at), then counts itself in
 * `waiters`, then looks at `published` a last time, and sleeps on `wakes`
 * as it read it before all that.  A writer moves `published` on, then
 * looks at `waiters` and `wake_at`, and if its count is the one the
 * reader wants (only one writer's is: the others would make a system
 * call each until the reader runs) moves `wakes` on and wakes it.  These accesses are sequentially consistent,
 * so in their one order either the writer sees the reader counted (and
 * its wake_at, stored before) or the reader sees the writer's
 * `published`.  A wake that comes before the reader is inside
 * FUTEX_WAIT is not lost either: the kernel compares `wakes` with what
 * the reader read first and returns at once.  So a publish costs no
 * system call while the recorder drains (with small chunks, most of
 * them), and the recorder sleeps until a share of the chunks is full
 * rather than waking for each one.  One reader at a time waits (a
 * recorder, or trace_pipe, which exclude each other): a second one's
 * wake_at would replace the first's.
 */
int ft_shm_wake(struct ft_shm *shm, int urgent)
{
	uint32_t now = atomic_fetch_add_explicit(&shm->published, 1, memory_order_seq_cst) + 1;

	if (!atomic_load_explicit(&shm->waiters, memory_order_seq_cst))
		return 0;
	if (!urgent && now != atomic_load_explicit(&shm->wake_at, memory_order_seq_cst))
		return 0;
	atomic_fetch_add_explicit(&shm->wakes, 1, memory_order_seq_cst);
	syscall(SYS_futex, &shm->wakes, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	return 1;
}

/* n added to a count in the memory's byte order (a reader may be of the
 * other): a compare-and-swap, sequentially consistent. */
static void add_count(struct ft_shm *shm, _Atomic uint32_t *count, uint32_t n)
{
	uint32_t old = atomic_load_explicit(count, memory_order_relaxed);

	while (!atomic_compare_exchange_weak(count, &old, ft_shm_u32(shm, ft_shm_u32(shm, old) + n)))
		;
}

void ft_shm_freed(struct ft_shm *shm)
{
	add_count(shm, &shm->freed, 1);
}

/*
 * READING keeps writers off a full chunk while it is copied.  Its thread
 * may mark it superseded meanwhile (buffer.c sets FT_CHUNK_OLD on a FULL
 * or READING word of the generation it published), so it goes back to
 * FULL by a compare-and-swap on the word as it is then, never by storing
 * the word read before, which would lose the mark; nor at all if the
 * generation or state moved.
 */
int ft_chunk_start_reading(struct ft_shm *shm, unsigned i, uint32_t *word)
{
	uint32_t raw = atomic_load(&shm->state[i]);

	for (;;) {
		uint32_t reading = ft_chunk_with_state(ft_shm_u32(shm, raw), FT_CHUNK_READING);

		*word = ft_shm_u32(shm, raw);
		if (ft_chunk_state(*word) != FT_CHUNK_FULL)
			return 0;
		if (atomic_compare_exchange_weak(&shm->state[i], &raw, ft_shm_u32(shm, reading))) {
			*word = reading;
			return 1;
		}
	}
}

void ft_chunk_free(struct ft_shm *shm, unsigned i, uint32_t word, uint32_t used)
{
	struct ft_chunk *c = ft_shm_chunk(shm, i);

	memset(c + 1, 0, used);
	c->consumed = 0;
	atomic_store_explicit(&shm->state[i], ft_shm_u32(shm, ft_chunk_with_state(word, FT_CHUNK_FREE)),
			      memory_order_release);
}

int ft_chunk_end_reading(struct ft_shm *shm, unsigned i, uint32_t reading)
{
	uint32_t raw = atomic_load(&shm->state[i]);

	for (;;) {
		uint32_t now = ft_shm_u32(shm, raw);

		if ((now & ~FT_CHUNK_OLD) != (reading & ~FT_CHUNK_OLD))
			return -1;
		if (atomic_compare_exchange_weak(&shm->state[i], &raw,
						 ft_shm_u32(shm, ft_chunk_with_state(now, FT_CHUNK_FULL))))
			return 0;
	}
}

void ft_shm_wait(struct ft_shm *shm, uint32_t seen, uint32_t want, unsigned timeout_ms)
{
	struct timespec timeout = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
	uint32_t wakes = atomic_load_explicit(&shm->wakes, memory_order_seq_cst);
	uint32_t at = ft_shm_u32(shm, seen) + (want ? want : 1);

	atomic_store_explicit(&shm->wake_at, ft_shm_u32(shm, at), memory_order_seq_cst);
	add_count(shm, &shm->waiters, 1);
	if ((int32_t)(ft_shm_u32(shm, atomic_load_explicit(&shm->published,
							   memory_order_seq_cst)) - at) < 0)
		syscall(SYS_futex, &shm->wakes, FUTEX_WAIT, wakes, &timeout, NULL, 0);
	add_count(shm, &shm->waiters, -1);
}

/* Whole events up to the first place an event should start and none does;
 * each head is read with acquire order, as the writer stored it. */
uint32_t ft_chunk_filled(const struct ft_shm *shm, const struct ft_chunk *c)
{
	const _Atomic uint32_t *w = (const _Atomic uint32_t *)(c + 1);
	size_t n = (ft_shm_chunk_size(shm) - sizeof(*c)) / 4, i = ft_shm_u32(shm, c->consumed) / 4;

	for (;;) {
		uint32_t head = i < n ? atomic_load_explicit(&w[i], memory_order_acquire) : 0;
		int len = i < n ? ft_event_words(ft_shm_u32(shm, head)) : -1;

		if (len < 0 || i + len > n)
			return i * 4;
		i += len;
	}
}

static int is_long(uint32_t head, unsigned type)
{
	return (head & 3) == 3 && ((head >> 2) & 0x3f) == type;
}

/* An ARGS event's n items: heads and values swapped, but for a string's
 * text, which is bytes.  An item that runs past the event is not one:
 * its words are swapped as plain words.  In place if out == w. */
static void swap_args(const uint32_t *w, uint32_t n, uint32_t *out)
{
	uint32_t i = 0;

	while (i < n) {
		uint32_t head = __builtin_bswap32(w[i]);
		uint32_t len = ft_arg_words(head);
		int text = (head & 0xff) == FT_ARG_STRING;

		if (len > n - i)
			break;
		out[i] = head;
		for (uint32_t k = 1; k < len; k++)
			out[i + k] = text ? w[i + k] : __builtin_bswap32(w[i + k]);
		i += len;
	}
	for (; i < n; i++)
		out[i] = __builtin_bswap32(w[i]);
}

/* Events in our order: every word swapped but a marker's text and an
 * argument's string, which are bytes.  words: whole events only. */
static void swap_events(const uint32_t *w, uint32_t words, uint32_t *out)
{
	for (uint32_t i = 0; i < words;) {
		uint32_t head = __builtin_bswap32(w[i]);
		int len = ft_event_words(head), text = is_long(head, FT_LONG_MARKER);

		if (len < 0 || i + len > words)
			len = words - i;	/* not an event: copy as it is */
		out[i] = head;
		if (is_long(head, FT_LONG_ARGS))
			swap_args(w + i + 1, len - 1, out + i + 1);
		else
			for (int k = 1; k < len; k++)
				out[i + k] = text ? w[i + k] : __builtin_bswap32(w[i + k]);
		i += len;
	}
}

void ft_chunk_swap(const struct ft_chunk *c, const uint32_t *events, uint32_t bytes,
		   struct ft_chunk *head, uint32_t *out)
{
	*head = *c;
	head->pid = __builtin_bswap32(c->pid);
	head->tid = __builtin_bswap32(c->tid);
	head->seq = __builtin_bswap64(c->seq);
	head->start_time = __builtin_bswap64(c->start_time);
	head->used = __builtin_bswap32(c->used);
	head->cpu = __builtin_bswap32(c->cpu);
	head->order = __builtin_bswap64(c->order);
	head->consumed = __builtin_bswap32(c->consumed);
	head->image = __builtin_bswap32(c->image);
	head->context = __builtin_bswap32(c->context);
	head->depth = __builtin_bswap32(c->depth);
	swap_events(events, bytes / 4, out);
}

/* The graph depth after the event whose head is head, the depth before
 * it being depth (plus one; 0: not known, and it stays so). */
static uint32_t depth_after(uint32_t head, uint32_t depth)
{
	unsigned type = (head >> 2) & 0x3f;

	if (!depth)
		return 0;
	if ((head & 1) == 0 || is_long(head, FT_LONG_ENTRY))
		return depth + 1;
	if ((head & 3) == 1 || type == FT_LONG_EXIT_RET || type == FT_LONG_UNWIND)
		return depth > 1 ? depth - 1 : 1;
	if (type == FT_LONG_LOST)
		return (head >> 8) + 1;
	return depth;
}

void ft_chunk_state_at(const struct ft_shm *shm, const struct ft_chunk *c, uint32_t offset,
		       struct ft_chunk *head)
{
	const uint32_t *w = (const uint32_t *)(c + 1);

	head->start_time = ft_shm_u64(shm, c->start_time);
	head->cpu = ft_shm_u32(shm, c->cpu);
	head->depth = ft_shm_u32(shm, c->depth);
	for (uint32_t i = 0; i < offset / 4;) {
		uint32_t h = ft_shm_u32(shm, w[i]);
		int len = ft_event_words(h);
		uint32_t ev[3];		/* as much as ft_event_time() reads */

		if (len < 0)
			break;
		for (int k = 0; k < len && k < 3; k++)
			ev[k] = ft_shm_u32(shm, w[i + k]);
		head->start_time = ft_event_time(ev, head->start_time);
		if (is_long(h, FT_LONG_CPU))
			head->cpu = h >> 8;
		head->depth = depth_after(h, head->depth);
		i += len;
	}
}

int ft_shm_clock_read(const struct ft_shm *shm, uint64_t ticks[2], uint64_t ns[2])
{
	const struct ft_shm_clock *k = &shm->clock;

	for (int tries = 0; tries < 1000; tries++) {
		uint32_t before = atomic_load_explicit(&k->seq, memory_order_acquire), after;

		for (int i = 0; i < 2; i++) {
			ticks[i] = ft_shm_u64(shm, ((volatile const uint64_t *)k->ticks)[i]);
			ns[i] = ft_shm_u64(shm, ((volatile const uint64_t *)k->ns)[i]);
		}
		atomic_thread_fence(memory_order_acquire);
		after = atomic_load_explicit(&k->seq, memory_order_relaxed);
		if (before == after && !(ft_shm_u32(shm, before) & 1))
			return ns[1] > ns[0] && ticks[1] > ticks[0] ? 0 : -1;
	}
	return -1;
}

struct ft_chunk_place ft_chunk_place(const struct ft_shm *shm, const struct ft_chunk *c)
{
	return (struct ft_chunk_place){
		.pid = ft_shm_u32(shm, c->pid), .image = ft_shm_u32(shm, c->image),
		.tid = ft_shm_u32(shm, c->tid), .context = ft_shm_u32(shm, c->context),
		.seq = ft_shm_u64(shm, c->seq) };
}

#define CMP(a, b)	(((a) > (b)) - ((a) < (b)))

int ft_chunk_place_cmp(const struct ft_chunk_place *x, const struct ft_chunk_place *y)
{
	if (x->pid != y->pid)
		return CMP(x->pid, y->pid);
	if (x->image != y->image)
		return CMP(x->image, y->image);
	if (x->tid != y->tid)
		return CMP(x->tid, y->tid);
	if (x->context != y->context)
		return CMP(x->context, y->context);
	return CMP(x->seq, y->seq);
}
