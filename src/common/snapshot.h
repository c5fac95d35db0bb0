/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Snapshots of the trace buffer: the kernel's spare buffer (`snapshot`).
 *
 * A snapshot buffer is a memfd of its own: a struct ft_snap in its first
 * page, then, FT_SNAP_HEAD bytes in, a struct ft_shm of the ring's layout
 * (its chunk size and number), whose chunk i holds what the ring's chunk
 * i held when the snapshot was taken: FULL with `used` bytes of whole
 * events, or FREE.  Everything in it is in the traced program's byte
 * order, as the ring is; a reader of the other order swaps what it reads.
 *
 * The copy (ft_snap_copy) is made by a thread that is not the program's
 * (the runtime's control thread, or the recorder once the program has
 * ended), and makes no program thread wait: a full chunk is marked
 * READING while it is copied, so that a writer in overwrite mode takes
 * another meanwhile, then FULL again with the rest of its state word as
 * it is then (its generation, and FT_CHUNK_OLD if its thread superseded
 * it meanwhile: trace_format.h); a chunk still being filled is copied up
 * to its last whole event, and the copy kept only if the chunk was still
 * the same use of it afterwards.
 *
 * seq is a sequence lock and a futex word: even while the snapshot is
 * whole, odd while one is taken or cleared; it moves on by two each time
 * (ft_snap_lock, ft_snap_unlock, which wakes every waiter).  A reader
 * that writes the snapshot out (the recorder) says so in `reader`, which
 * a taker waits a little for, and checks seq again after: a snapshot
 * taken meanwhile makes its copy void.
 */
#ifndef FNTRACE_SNAPSHOT_H
#define FNTRACE_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "trace_format.h"

#define FT_SNAP_MAGIC	"FNTSNAP\x01"
#define FT_SNAP_VERSION	1
#define FT_SNAP_HEAD	4096	/* where the ring's copy starts */

/* Why a snapshot was taken. */
enum ft_snap_reason {
	FT_SNAP_NONE,		/* none held: never taken, or cleared */
	FT_SNAP_CONTROL,	/* a write of 1 to the snapshot file; asked_by
				 * is the writer's pid (fntrace ctl) */
	FT_SNAP_PROGRAM,	/* asked by a thread of the program (asked_by
				 * its tid): fntrace_ctl_write(), a trigger */
	FT_SNAP_END,		/* the program ended: the ring's last window */
	FT_SNAP_STOPPED,	/* the recording stopped (record -p: Ctrl-C,
				 * -d's time): the window then */
	FT_SNAP_CRASH,		/* the program died of SIGSEGV, SIGBUS, SIGILL,
				 * SIGFPE or SIGABRT: the ring's last window,
				 * `why` says which and where (crash.h) */
	FT_SNAP_REASONS
};

struct ft_snap {
	char magic[8];
	uint32_t version;
	uint32_t word_order;		/* FT_WORD_ORDER in the memory's order */
	_Atomic uint32_t seq;		/* sequence lock and futex word (above) */
	_Atomic uint32_t reader;	/* pid of a reader writing it out, or 0 */
	uint32_t number;		/* snapshots taken into this buffer */
	uint32_t reason;		/* enum ft_snap_reason */
	uint32_t asked_by;		/* who asked (enum ft_snap_reason says) */
	uint32_t taken_by;		/* the thread that copied it (its tid), or
					 * the recorder (its pid) */
	uint32_t pid;			/* the process it was taken in */
	uint32_t chunks;		/* chunks that hold events */
	uint32_t skipped;		/* chunks that changed hands each time they
					 * were copied: left out */
	uint32_t overtaken;		/* chunks the writers published while it
					 * was copied, if a whole turn of the ring
					 * or more (every chunk may have been taken
					 * anew before the copy came to it); else 0 */
	uint64_t taken_ns;		/* when the copy ended: CLOCK_MONOTONIC */
	uint64_t realtime_ns;		/* ... and CLOCK_REALTIME */
	uint64_t copy_ns;		/* how long the copy took */
	uint64_t lost;			/* events the ring had dropped for want of
					 * a chunk, process-wide, until then */
	uint64_t published;		/* chunks the ring had published until then */
	char tracer[24];		/* whose events it holds */
	char ring_tracer[24];		/* the process's tracer now (kept up to
					 * date by the runtime): for a copy the
					 * recorder makes after the program ended */
	char why[128];			/* what asked, in words; may be "" */
};

/* A snapshot buffer for ring: its fd in *fd, mapped in *out, empty.  -1
 * with errno on failure. */
int ft_snap_create(const struct ft_shm *ring, int *fd, struct ft_snap **out);
/* Map the snapshot buffer fd holds; NULL if it is not one. */
struct ft_snap *ft_snap_map(int fd);
size_t ft_snap_size(const struct ft_snap *s);
/* The copy of the ring it holds. */
struct ft_shm *ft_snap_shm(const struct ft_snap *s);
/* Does it describe chunks of ring's layout? */
int ft_snap_fits(const struct ft_snap *s, const struct ft_shm *ring);

/* A field of the header, in our byte order (the memory's may differ). */
uint32_t ft_snap_u32(const struct ft_snap *s, uint32_t v);
uint64_t ft_snap_u64(const struct ft_snap *s, uint64_t v);
void ft_snap_set32(const struct ft_snap *s, uint32_t *field, uint32_t v);
/* seq, in our byte order. */
uint32_t ft_snap_seq(const struct ft_snap *s);

/* Wait, up to timeout_ms, for a reader writing the snapshot out to be
 * done (one that died is not waited for).  1 if it still reads. */
int ft_snap_wait_reader(struct ft_snap *s, unsigned timeout_ms);
/* Take the sequence lock: 0, or -1 if someone else holds it. */
int ft_snap_lock(struct ft_snap *s);
/* Release it, the snapshot whole again; every waiter on seq woken. */
void ft_snap_unlock(struct ft_snap *s);
/* Under the lock: copy the ring (above), the header's counts and times
 * but for the caller's fields (reason, asked_by, taken_by, pid, why,
 * tracer) filled in. */
void ft_snap_copy(struct ft_snap *s, struct ft_shm *ring);
/* Under the lock: hold nothing. */
void ft_snap_clear(struct ft_snap *s);

/* A reader starts writing the snapshot out: its seq (even), or -1 if one
 * is being taken (wait for the next).  ft_snap_read_end: was the copy
 * whole (the snapshot unchanged since seq)? */
int64_t ft_snap_read_begin(struct ft_snap *s, uint32_t pid);
int ft_snap_read_end(struct ft_snap *s, uint32_t seq);

/* The lines a data directory's info (and the snapshot's stream) gets:
 * `snapshot: N`, `snapshot_reason: ...` and the rest (src/trace/
 * trace_snapshot.c reads them).  The text's length, as snprintf's. */
int ft_snap_info_lines(const struct ft_snap *s, char *buf, size_t len);

#endif
