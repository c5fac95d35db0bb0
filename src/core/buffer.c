// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread chunks of the buffer's shared memory: a recorder's, or with
 * none our own, which overwrites.  Taking and handing back a chunk are
 * the only synchronised steps; writing events into an owned chunk needs
 * none.  When the recorder falls behind and no chunk is free, events are
 * dropped and counted, and the count is written into the next chunk the
 * thread gets: loss is never silent.  Overwriting takes first the chunks
 * a newer chunk of the same context has superseded, so that every thread
 * keeps at least its newest full chunk and the one it fills, however busy
 * the others are: quiet threads, and threads that ended, keep their last
 * window.  Each context of a thread (events.h) takes chunks of its own,
 * so a signal handler's events never land in the middle of the
 * interrupted code's.
 */
#include "buffer.h"
#include "control.h"
#include "events.h"
#include "fds.h"
#include "funcs_file.h"
#include "limits.h"
#include "messages.h"
#include "own_work.h"
#include "../common/clock_pair.h"
#include "../common/shm.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* The longest write a writer reserves room for (a marker, readout.c;
 * an ARGS event, whose words args.c counts in a byte; a stack trace,
 * trigger_stack.c), after the LOST a fresh chunk may start with, fits the
 * smallest chunk. */
#define FT_ROOM_FOR(words) (sizeof(struct ft_chunk) + 4 * (3 + FT_MAX_EVENT_WORDS + 1 + (words)))
_Static_assert(FT_ROOM_FOR(FT_MARKER_MAX / 4) <= FT_CHUNK_MIN && FT_ROOM_FOR(255) <= FT_CHUNK_MIN &&
	       FT_ROOM_FOR(2 * FT_STACK_MAX_FRAMES) <= FT_CHUNK_MIN,
	       "the smallest chunk holds the longest event");

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

int ft_buffer_attach(int fd, const char *exec_name)
{
	struct ft_shm head;
	void *p;

	if (pread(fd, &head, sizeof(head), 0) != sizeof(head) || !ft_shm_sane(&head) ||
	    ft_shm_swapped(&head)) {
		ft_warn("the recorder's shared memory (fd %d) is not usable", fd);
		return -1;
	}
	p = mmap(NULL, ft_shm_size(&head), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	shm = p;
	/* Kept for the images the program execs, wherever it moves to. */
	ft_fd_adopt(FT_FD_BUFFER, fd, exec_name);
	note_clock();
	ft_buffer_note_control_tid();
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
	ft_buffer_note_control_tid();
	return 0;
}

void ft_buffer_note_control_tid(void)
{
	uint32_t tid = (uint32_t)ft_control_tid(), slot;

	if (!shm || !tid)
		return;
	slot = atomic_fetch_add(&shm->control_next, 1) % FT_CONTROL_TIDS;
	atomic_store(&shm->control_tids[slot], tid);
	atomic_fetch_add(&shm->control_noted, 1);
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

/* The thread's name, into every chunk: asked of the kernel (a system
 * call, microseconds) as the thread's state is made (ft_buffer_name,
 * inside the runtime's own work there) and then once every FT_CHUNK_MAX
 * bytes of a context's chunks, as when every chunk was that large, small
 * as chunks are now; a name set meanwhile shows from the next ask.  Each
 * context keeps its own copy, which a signal handler's chunk taken
 * halfway through the other's cannot tear. */
void ft_buffer_name(struct ft_thread *t)
{
	prctl(PR_GET_NAME, t->comm[0]);
	for (unsigned i = 0; i < sizeof(t->comm[1]); i++)
		t->comm[1][i] = t->comm[0][i];
}

static void chunk_name(struct ft_context *c, struct ft_chunk *k)
{
	char *name = c->thread->comm[c->number];
	uint64_t n = ft_seq_number(k->seq);

	if (n && n % (FT_CHUNK_MAX / shm->chunk_size) == 0) {
		uint64_t from = ft_own_work_begin();

		prctl(PR_GET_NAME, name);
		ft_own_work_end_of(c->thread->pid, c->thread->tid, from);
	}
	for (unsigned i = 0; i < sizeof(k->comm); i++)
		k->comm[i] = name[i];
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
	chunk_name(c, k);
	c->chunk = k;
	c->pos = (uint32_t *)(k + 1);
	c->end = (uint32_t *)((char *)k + shm->chunk_size);
}

/* The chunk's place in the buffer. */
static unsigned chunk_index(const struct ft_chunk *k)
{
	return ((const char *)k - ((const char *)shm + shm->chunks_offset)) / shm->chunk_size;
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

/* How much a chunk in state `word` is worth taking: a free one at once;
 * with no recorder (overwrite), a full one superseded by a newer chunk
 * of its context at once too, any other full one only if a whole turn
 * found nothing better (it is some context's newest). */
enum take_rank { TAKE_NEVER, TAKE_LAST, TAKE_NOW };

static enum take_rank take_rank(uint32_t word, int overwrite)
{
	unsigned state = ft_chunk_state(word);

	if (state == FT_CHUNK_FREE)
		return TAKE_NOW;
	if (!overwrite || state != FT_CHUNK_FULL)
		return TAKE_NEVER;
	return word & FT_CHUNK_OLD ? TAKE_NOW : TAKE_LAST;
}

/* Chunk i, still in state `word`, is ours to fill: its next generation.
 * A full one is emptied first, its events lost, as the kernel's ring
 * buffer overwrites. */
static int claim(unsigned i, uint32_t word)
{
	uint32_t next = ft_chunk_with_state(word + FT_CHUNK_GEN_ONE, FT_CHUNK_FILLING);

	if (!atomic_compare_exchange_strong(&shm->state[i], &word, next & ~FT_CHUNK_OLD))
		return 0;
	if (ft_chunk_state(word) == FT_CHUNK_FULL)
		zero_words((uint32_t *)(ft_shm_chunk(shm, i) + 1),
			   (shm->chunk_size - sizeof(struct ft_chunk)) / 4);
	return 1;
}

/* How often chunks had been freed (and, with no recorder, published: one
 * more chunk to overwrite) when a search found no chunk to take; another
 * search is worth it only once that moves on.  A context with no chunk
 * tries again at every event, and a turn of thousands of chunks is a cost
 * the program would pay for each.  Both counts only grow, so their sum
 * moves whenever either does; 32 bits, which i386 stores atomically
 * without a library call. */
static _Atomic uint32_t none_at = UINT32_MAX;

static uint32_t buffer_moves(int overwrite)
{
	return atomic_load(&shm->freed) + (overwrite ? atomic_load(&shm->published) : 0);
}

/*
 * A chunk to fill: from the hand on, the first one worth taking now,
 * else the first full one of the turn; -1 if there is none.  Chunks are
 * taken round the buffer in turn, so that the hand points at the ones
 * taken longest ago, and with no recorder the oldest events are the
 * ones overwritten.  Each search starts one on from the last, so
 * threads taking chunks at once do not contend for the same one.
 */
static int take_index(void)
{
	unsigned n = shm->nr_chunks, start;
	int overwrite = atomic_load_explicit(&shm->flags, memory_order_relaxed) & FT_SHM_OVERWRITE;
	uint32_t moves = buffer_moves(overwrite);
	int last = -1;
	uint32_t last_word = 0;

	if (moves == atomic_load_explicit(&none_at, memory_order_relaxed))
		return -1;
	start = atomic_fetch_add_explicit(&shm->hand, 1, memory_order_relaxed) % n;
	for (unsigned k = 0, i = start; k < n; k++, i = i + 1 < n ? i + 1 : 0) {
		uint32_t word = atomic_load_explicit(&shm->state[i], memory_order_relaxed);
		enum take_rank rank = take_rank(word, overwrite);

		if (rank == TAKE_NOW && claim(i, word)) {
			if (i != start)
				atomic_store_explicit(&shm->hand, i + 1, memory_order_relaxed);
			return i;
		}
		if (rank == TAKE_LAST && last < 0) {
			last = i;
			last_word = word;
		}
	}
	if (last >= 0 && claim(last, last_word))
		return last;
	atomic_store_explicit(&none_at, moves, memory_order_relaxed);
	return -1;
}

/* Set when a thread's wait for a chunk at its end got none; cleared when
 * a thread gets one (chunk_at_end). */
static _Atomic int end_wait_vain;

static int chunk_take(struct ft_context *c)
{
	int i = take_index();

	if (i < 0)
		return 0;
	chunk_own(c, i);
	if (atomic_load_explicit(&end_wait_vain, memory_order_relaxed))
		atomic_store_explicit(&end_wait_vain, 0, memory_order_relaxed);
	return 1;
}

void ft_buffer_wake_recorder(void)
{
	if (shm)
		ft_shm_wake(shm, 1);
}

/* c's previous chunk is no longer its newest: the first to be reused
 * with no recorder.  Only if it is still that use of the chunk (its
 * generation), full or being read: since it was published, a thread may
 * have taken it and published it again as its own newest. */
static void supersede(struct ft_context *c, unsigned i, uint32_t word)
{
	struct ft_chunk_note *newest = &c->thread->newest[c->number];
	_Atomic uint32_t *w = &shm->state[newest->chunk];
	uint32_t now = atomic_load_explicit(w, memory_order_relaxed);

	while (newest->word && (now & ~(FT_CHUNK_OLD | 1u)) == newest->word &&
	       !(now & FT_CHUNK_OLD) && !atomic_compare_exchange_weak(w, &now, now | FT_CHUNK_OLD))
		;
	newest->chunk = i;
	newest->word = word;
}

static void chunk_publish(struct ft_context *c)
{
	struct ft_chunk *k = c->chunk;
	unsigned i = chunk_index(k);
	uint32_t word = ft_chunk_with_state(atomic_load_explicit(&shm->state[i],
								 memory_order_relaxed), FT_CHUNK_FULL);
	uint64_t from = ft_own_work_begin();

	k->used = (uint32_t)((char *)c->pos - (char *)(k + 1));
	k->order = atomic_fetch_add(&shm->order, 1) + 1;
	atomic_store_explicit(&shm->state[i], word, memory_order_release);
	supersede(c, i, word);
	if (ft_shm_wake(shm, 0))
		ft_own_work_end_of(c->thread->pid, c->thread->tid, from);
	note_clock();
	c->chunk = NULL;
	c->pos = c->end = NULL;
}

static void write_lost(struct ft_context *c, uint64_t n, uint32_t depth)
{
	c->pos[1] = (uint32_t)n;
	c->pos[2] = (uint32_t)(n >> 32);
	ev_commit(c, ft_long_word(FT_LONG_LOST, depth & FT_LONG_MAX_PAYLOAD), 2);
}

/*
 * Say how many events were dropped, and where the nesting goes on, in
 * the trace's depths (not the profiler's frames, nor tracing_thresh's:
 * the trace never opened them).  The calls below the fewest frames the
 * stack held meanwhile are the ones open before; those above returned
 * unseen, and the ones open now above it were entered unseen:
 *
 *	LOST n, depth kept		the frames above close
 *	LOST 0, depth now		stand-ins open up to it (if more)
 *
 * A reader that took the stack back to the depth now alone would pair
 * an entry before the loss with the exit of another call after it.
 */
static void note_lost(struct ft_context *c)
{
	uint32_t low = c->depth < c->lost_low ? c->depth : c->lost_low;
	uint32_t kept = ft_trace_frames(c, low), now = ft_trace_depth(c);

	write_lost(c, c->lost, kept);
	if (now != kept)
		write_lost(c, 0, now);
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

/* n more events dropped; from the first, the stack's low-water mark.
 * Each traced call's exit passes here while events are lost (no chunk
 * has room), at the depth before it pops, and note_lost sees the depth
 * after the last: together every depth the stack went through, with no
 * cost on the traced call's own path. */
static void add_lost(struct ft_context *c, uint64_t n)
{
	if (!c->lost || c->depth < c->lost_low)
		c->lost_low = (uint16_t)c->depth;
	c->lost += n;
	count_lost(n);
}

int ft_buffer_refill(struct ft_context *c)
{
	if (chunk_next(c))
		return 1;
	add_lost(c, 1);
	return 0;
}

/* The note is at the time it is written, from which the next delta
 * counts: after a TIME in the chunk, or first in a fresh chunk that starts
 * then (or, if none is free, in the next one c gets). */
void ft_buffer_add_lost(struct ft_context *c, uint64_t n)
{
	add_lost(c, n);
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

void ft_buffer_thread_begins(struct ft_thread *t)
{
	uint32_t thread = shm ? atomic_fetch_add(&shm->threads_begun, 1) + 1 : 0;

	t->own.seq = t->signal.seq = ft_seq_first(thread);
}

void ft_buffer_forget(struct ft_thread *t)
{
	struct ft_context *c[] = { &t->own, &t->signal };

	for (unsigned i = 0; i < 2; i++) {
		c[i]->chunk = NULL;
		c[i]->pos = c[i]->end = NULL;
		t->newest[i].word = 0;
	}
	ft_buffer_thread_begins(t);
}
