/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Creating the buffers' shared memory (layout in trace_format.h): by the
 * recorder for a recording, by the runtime for its own in-process buffer.
 * The memory is in the traced program's byte order; the ft_shm_* readers
 * below take it into ours.
 */
#ifndef FNTRACE_SHM_H
#define FNTRACE_SHM_H

#include <stddef.h>

#include "trace_format.h"

/*
 * A buffer is cut into FT_CHUNKS chunks, as the kernel's ring buffer is
 * into pages: a thread holds one while it writes, so the more chunks, the
 * more threads write at once without loss.  Their size is a power of two,
 * at least FT_CHUNK_MIN, which holds the longest event a writer reserves
 * room for (a marker, FT_MARKER_MAX), and at most FT_CHUNK_MAX: a larger
 * buffer gets more chunks rather than larger ones.
 */
#define FT_CHUNKS	4096
#define FT_CHUNK_MIN	(8 * 1024)
#define FT_CHUNK_MAX	(256 * 1024)

/* A memfd of about size_kb (FT_CHUNK_MIN at least, and at least four
 * chunks), with its header written (in the other byte order if swapped);
 * its fd in *fd and its mapping in *shm.  -1 with errno set on failure. */
int ft_shm_create(unsigned size_kb, unsigned flags, int swapped, int *fd, struct ft_shm **shm);
/* The chunk size a buffer of size_kb gets. */
size_t ft_shm_chunk_size_for(unsigned size_kb);

/* Is the memory in the other byte order than ours? */
static inline int ft_shm_swapped(const struct ft_shm *shm)
{
	return shm->word_order == __builtin_bswap32(FT_WORD_ORDER);
}

static inline uint32_t ft_order32(int swapped, uint32_t v)
{
	return swapped ? __builtin_bswap32(v) : v;
}

static inline uint64_t ft_order64(int swapped, uint64_t v)
{
	return swapped ? __builtin_bswap64(v) : v;
}

/* A word of the memory (read, or to be written) in the other order. */
static inline uint32_t ft_shm_u32(const struct ft_shm *shm, uint32_t v)
{
	return ft_order32(ft_shm_swapped(shm), v);
}

static inline uint64_t ft_shm_u64(const struct ft_shm *shm, uint64_t v)
{
	return ft_order64(ft_shm_swapped(shm), v);
}

/* The runtime's first and latest clock samples (ft_shm_clock), in our
 * byte order; -1 if it has not two distinct ones (or a writer died
 * halfway through one). */
int ft_shm_clock_read(const struct ft_shm *shm, uint64_t ticks[2], uint64_t ns[2]);

size_t ft_shm_size(const struct ft_shm *shm);
unsigned ft_shm_nr_chunks(const struct ft_shm *shm);
size_t ft_shm_chunk_size(const struct ft_shm *shm);
/* Does a header (of either byte order) describe chunks we can read? */
int ft_shm_sane(const struct ft_shm *shm);
struct ft_chunk *ft_shm_chunk(const struct ft_shm *shm, unsigned i);
/* Bytes of whole events in a chunk still being filled (counted from the
 * start of its events, beginning the walk at c->consumed). */
uint32_t ft_chunk_filled(const struct ft_shm *shm, const struct ft_chunk *c);

/* The time, CPU and graph depth after the events before offset, in our
 * byte order, into head's start_time, cpu and depth: a piece of a chunk
 * starting there is a chunk of its own with these. */
void ft_chunk_state_at(const struct ft_shm *shm, const struct ft_chunk *c, uint32_t offset,
		       struct ft_chunk *head);

/* A writer's side (native order): a chunk was published, or (urgent) a
 * request made; a reader asleep in ft_shm_wait() is woken if it asked to
 * be at this count, or at once if urgent: 1 if it made the system call
 * that wakes. */
int ft_shm_wake(struct ft_shm *shm, int urgent);
/* A reader's side (either order): sleep until `published` is `want` past
 * seen (as read before the reader last looked at the chunks), an urgent
 * wake, a signal, or timeout_ms. */
void ft_shm_wait(struct ft_shm *shm, uint32_t seen, uint32_t want, unsigned timeout_ms);
/* A reader's side (either order): chunks were freed (or put back after
 * reading), which writers that found none may take now. */
void ft_shm_freed(struct ft_shm *shm);

/* A reader's side (either order), copying a full chunk it does not free
 * (a snapshot, the trace file): chunk i, while FULL, marked READING, so
 * that no writer takes it meanwhile: 1, its READING word (our order) in
 * *word; 0 if it is not FULL, *word then its word. */
int ft_chunk_start_reading(struct ft_shm *shm, unsigned i, uint32_t *word);
/* ... and FULL again, with the FT_CHUNK_OLD mark its thread may have set
 * meanwhile: 0; -1 if it is no longer the use of the chunk `reading`
 * (its state or generation moved: a recorder freed it under the mark,
 * and a writer may have taken it), which is then left as it is. */
int ft_chunk_end_reading(struct ft_shm *shm, unsigned i, uint32_t reading);
/* A reader's side (either order), done with chunk i, whose word (our
 * order) it holds: its first `used` bytes of events zeroed (a writer
 * finds the end of its events by the first zero head), and FREE, the
 * generation kept (only a writer taking it moves that on). */
void ft_chunk_free(struct ft_shm *shm, unsigned i, uint32_t word, uint32_t used);

/* Where a chunk goes in its thread's stream of chunks (in our order):
 * whose, which context, its number. */
struct ft_chunk_place {
	uint32_t pid, image, tid, context;
	uint64_t seq;
};

struct ft_chunk_place ft_chunk_place(const struct ft_shm *shm, const struct ft_chunk *c);
/* Stream by stream, each stream's chunks in their order. */
int ft_chunk_place_cmp(const struct ft_chunk_place *x, const struct ft_chunk_place *y);
static inline int ft_same_stream(const struct ft_chunk_place *x, const struct ft_chunk_place *y)
{
	return x->pid == y->pid && x->image == y->image && x->tid == y->tid &&
	       x->context == y->context;
}

/* A chunk header and its events (bytes of whole events) of the other
 * byte order, into ours: copied, or in place if head is c and out is
 * events. */
void ft_chunk_swap(const struct ft_chunk *c, const uint32_t *events, uint32_t bytes,
		   struct ft_chunk *head, uint32_t *out);

#endif
