// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread chunks of the recorder's shared memory.  Taking and handing
 * back a chunk are the only synchronised steps; writing events into an
 * owned chunk needs none.  When the recorder falls behind and no chunk is
 * free, events are dropped and counted, and the count is written into the
 * next chunk the thread gets: loss is never silent.  Each context of a
 * thread (events.h) takes chunks of its own, so a signal handler's events
 * never land in the middle of the interrupted code's.
 */
#include "buffer.h"
#include "events.h"
#include "fds.h"
#include "funcs_file.h"
#include "limits.h"
#include "messages.h"
#include "../common/clock_pair.h"
#include "../common/shm.h"

#include <linux/futex.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static struct ft_shm *shm;
static unsigned own_size_kb = 16384;	/* buffer_size_kb */

/* The buffer's clock samples (ft_shm_clock): the first one ever, and this
 * one as the latest.  Another thread or process sampling now has it. */
static void note_clock(void)
{
	struct ft_shm_clock *k = &shm->clock;
	uint32_t seq = atomic_load_explicit(&k->seq, memory_order_relaxed);
	uint64_t ticks = 0, ns = 0;

	if ((seq & 1) || !atomic_compare_exchange_strong(&k->seq, &seq, seq + 1))
		return;
	ft_clock_pair(&ticks, &ns);
	if (!k->ns[0]) {
		k->ticks[0] = ticks;
		k->ns[0] = ns;
	}
	k->ticks[1] = ticks;
	k->ns[1] = ns;
	atomic_store_explicit(&k->seq, seq + 2, memory_order_release);
}

/* The last sample, as the process ends: a short program may never have
 * handed a chunk over. */
__attribute__((destructor)) static void note_clock_at_exit(void)
{
	if (shm)
		note_clock();
}

int ft_buffer_attached(void)
{
	return shm != NULL;
}

int ft_buffer_attach(int fd)
{
	struct ft_shm head;
	void *p;

	if (pread(fd, &head, sizeof(head), 0) != sizeof(head) ||
	    memcmp(head.magic, FT_SHM_MAGIC, sizeof(head.magic)) ||
	    head.version != FT_SHM_VERSION || head.nr_chunks == 0) {
		ft_warn("the recorder's shared memory (fd %d) is not usable", fd);
		return -1;
	}
	p = mmap(NULL, ft_shm_size(&head), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	shm = p;
	/* Kept for the images the program execs, wherever it moves to. */
	ft_fd_adopt(FT_FD_BUFFER, fd, "FNTRACE_SHM_FD");
	note_clock();
	return 0;
}

int ft_buffer_set_size(unsigned size_kb)
{
	if (shm)
		return -1;
	own_size_kb = size_kb < 1024 ? 1024 : size_kb;
	return 0;
}

unsigned ft_buffer_size_kb(void)
{
	return own_size_kb;
}

static int create_shm(void *unused)
{
	int fd;

	return ft_shm_create(own_size_kb, FT_SHM_OVERWRITE, 0, &fd, &shm) ? -1 : fd;
}

int ft_buffer_create(void)
{
	if (shm)
		return 0;
	ft_limits_grow((size_t)own_size_kb << 10);
	if (ft_fd_open(FT_FD_BUFFER, create_shm, NULL, NULL) < 0) {
		ft_warn("cannot create the trace buffer");
		return -1;
	}
	note_clock();
	return 0;
}

struct ft_shm *ft_buffer_shm(void)
{
	return shm;
}

/* -1 if a raw close_range() took it: never another file in its place. */
int ft_buffer_fd(void)
{
	return ft_fd_checked(FT_FD_BUFFER);
}

static void chunk_own(struct ft_context *c, unsigned i)
{
	struct ft_chunk *k = ft_shm_chunk(shm, i);

	k->pid = c->thread->pid;
	k->tid = c->thread->tid;
	k->context = c->number;
	k->seq = c->seq++;
	k->start_time = c->last;
	k->used = 0;
	k->consumed = 0;
	k->image = ft_image;
	k->cpu = c->cpu;
	k->depth = ft_trace_depth(c) + 1;
	prctl(PR_GET_NAME, k->comm);
	c->chunk = k;
	c->pos = (uint32_t *)(k + 1);
	c->end = (uint32_t *)((char *)k + shm->chunk_size);
}

static int claim(unsigned i, uint32_t from)
{
	return atomic_load_explicit(&shm->state[i], memory_order_relaxed) == from &&
	       atomic_compare_exchange_strong(&shm->state[i], &from, FT_CHUNK_FILLING);
}

/* By hand, not with memset: this runs inside a hook, where the traced
 * function's floating-point arguments are live, and libc's memset may
 * use the vector registers (its SSE2 variant sets xmm0).  The runtime is
 * built so that gcc does not turn the loop back into a memset call. */
static void zero_words(uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		w[i] = 0;
}

/* With no recorder, the oldest full chunk is reused, its events lost,
 * as the kernel's ring buffer overwrites. */
static int steal_oldest(void)
{
	uint64_t oldest = UINT64_MAX;
	int best = -1;

	for (unsigned i = 0; i < shm->nr_chunks; i++) {
		const struct ft_chunk *c = ft_shm_chunk(shm, i);

		if (atomic_load(&shm->state[i]) == FT_CHUNK_FULL && c->order < oldest) {
			oldest = c->order;
			best = i;
		}
	}
	if (best < 0 || !claim(best, FT_CHUNK_FULL))
		return -1;
	zero_words((uint32_t *)(ft_shm_chunk(shm, best) + 1),
		   (shm->chunk_size - sizeof(struct ft_chunk)) / 4);
	return best;
}

/* Set when a thread's wait for a chunk at its end got none; cleared when
 * a thread gets one (chunk_at_end). */
static _Atomic int end_wait_vain;

static int chunk_take(struct ft_context *c)
{
	unsigned n = shm->nr_chunks;
	unsigned start = atomic_fetch_add_explicit(&shm->hint, 1, memory_order_relaxed);
	int stolen;

	for (unsigned k = 0; k < n; k++) {
		unsigned i = (start + k) % n;

		if (claim(i, FT_CHUNK_FREE)) {
			chunk_own(c, i);
			if (atomic_load_explicit(&end_wait_vain, memory_order_relaxed))
				atomic_store_explicit(&end_wait_vain, 0, memory_order_relaxed);
			return 1;
		}
	}
	if (!(atomic_load(&shm->flags) & FT_SHM_OVERWRITE) || (stolen = steal_oldest()) < 0)
		return 0;
	chunk_own(c, stolen);
	return 1;
}

/* The word moves too: a recorder about to wait for it does not. */
void ft_buffer_wake_recorder(void)
{
	if (!shm)
		return;
	atomic_fetch_add_explicit(&shm->published, 1, memory_order_release);
	syscall(SYS_futex, &shm->published, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static void chunk_publish(struct ft_context *c)
{
	struct ft_chunk *k = c->chunk;
	unsigned i = ((char *)k - ((char *)shm + shm->chunks_offset)) / shm->chunk_size;

	k->used = (uint32_t)((char *)c->pos - (char *)(k + 1));
	k->order = atomic_fetch_add(&shm->order, 1) + 1;
	atomic_store_explicit(&shm->state[i], FT_CHUNK_FULL, memory_order_release);
	ft_buffer_wake_recorder();
	note_clock();
	c->chunk = NULL;
	c->pos = c->end = NULL;
}

/* Write how many events were dropped, and the context's graph depth now
 * (not the profiler's frames, nor tracing_thresh's: the trace never
 * opened them), so the report can pick up the nesting again. */
static void note_lost(struct ft_context *c)
{
	c->pos[1] = (uint32_t)c->lost;
	c->pos[2] = (uint32_t)(c->lost >> 32);
	ev_commit(c, ft_long_word(FT_LONG_LOST, ft_trace_depth(c) & FT_LONG_MAX_PAYLOAD), 2);
	c->lost = 0;
}

/* A fresh chunk for c, which starts by saying what c lost. */
static int chunk_next(struct ft_context *c)
{
	if (!shm)
		return 0;
	if (c->chunk)
		chunk_publish(c);
	if (!chunk_take(c))
		return 0;
	if (c->lost)
		note_lost(c);
	return 1;
}

/* Every loss also counts in the shared total: a thread may end before
 * any chunk is free to say its own (a slow path: no chunk is free). */
static void count_lost(uint64_t n)
{
	if (shm)
		atomic_fetch_add_explicit(&shm->lost, n, memory_order_relaxed);
}

void ft_buffer_count_lost(uint64_t n)
{
	count_lost(n);
}

int ft_buffer_refill(struct ft_context *c)
{
	if (chunk_next(c))
		return 1;
	c->lost++;
	count_lost(1);
	return 0;
}

/* The note is at the time it is written, from which the next delta
 * counts: after a TIME in the chunk, or first in a fresh chunk that starts
 * then (or, if none is free, in the next one c gets). */
void ft_buffer_add_lost(struct ft_context *c, uint64_t n)
{
	c->lost += n;
	count_lost(n);
	c->last = arch_clock();
	if (c->end - c->pos >= FT_MAX_EVENT_WORDS) {
		ev_time(c, c->last);
		note_lost(c);
	} else {
		chunk_next(c);
	}
}

int ft_buffer_reserve(struct ft_context *c, unsigned words)
{
	if (c->end - c->pos >= (ptrdiff_t)words)
		return 0;
	return ft_buffer_refill(c) && c->end - c->pos >= (ptrdiff_t)words ? 0 : -1;
}

/*
 * A thread that ends having lost events, with no chunk to say so in,
 * waits a while for the recorder to free one: without the note (its
 * count, and its depth once its frames were closed) its last frames
 * stay open in the trace, and the loss is only in the shared total.  A
 * recorder frees chunks at every pass, at least every 100 ms.  A wait
 * that got no chunk is not tried again until some thread gets one, so
 * that with nobody draining (overwrite off and no reader) one thread
 * waits, not every thread that ends.
 */
#define END_WAIT_MS 300

static void chunk_at_end(struct ft_context *c)
{
	struct timespec tick = { 0, 5 * 1000 * 1000 };

	for (unsigned waited = 0; !chunk_next(c); waited += 5) {
		if (atomic_load(&end_wait_vain) || waited >= END_WAIT_MS) {
			atomic_store(&end_wait_vain, 1);
			return;
		}
		nanosleep(&tick, NULL);
	}
}

/* A thread ends: its chunks go to the recorder, with a last try at
 * saying what it lost (else only the shared total has it). */
void ft_buffer_release(struct ft_thread *t)
{
	struct ft_context *c[] = { &t->own, &t->signal };

	for (unsigned i = 0; shm && i < 2; i++) {
		if (c[i]->lost && !c[i]->chunk)
			chunk_at_end(c[i]);
		if (c[i]->chunk)
			chunk_publish(c[i]);
	}
}

void ft_buffer_forget(struct ft_thread *t)
{
	struct ft_context *c[] = { &t->own, &t->signal };

	for (unsigned i = 0; i < 2; i++) {
		c[i]->chunk = NULL;
		c[i]->pos = c[i]->end = NULL;
		c[i]->seq = 0;
	}
}
