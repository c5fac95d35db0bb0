/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Draining the buffers' shared memory into trace.dat: for a program the
 * recorder started, and for one it attached to (record -p).  Chunks are
 * freed whatever happens to the writes: once trace.dat cannot take more,
 * their events are counted as dropped (in the info), so the program never
 * waits for a recorder that cannot store.
 */
#ifndef FNTRACE_DRAIN_H
#define FNTRACE_DRAIN_H

#include <stdint.h>

#include "datadir.h"
#include "../common/shm.h"
#include "../trace/counts.h"

/* The threads whose events were written: (pid, image, tid), as the
 * reader tells threads apart. */
struct drain_thread {
	uint32_t pid, image, tid;
};

/* A chunk a pass takes, and when it was handed over. */
struct drain_pick {
	uint64_t order;		/* a full one's: when it was handed over */
	struct ft_chunk_place place;
	uint32_t index, word;	/* word: its state word, in our order */
};

struct drainer {
	struct ft_shm *shm;
	struct datadir *dir;
	struct tr_counts written;	/* what the chunks written to trace.dat
					 * hold; its lost: events the runtime
					 * dropped, as their LOST events say */
	uint64_t lost_noted;		/* ... and in the chunks dropped too */
	uint64_t lost_before;		/* the process's losses before the
					 * recording began (record -p) */
	uint64_t earliest;		/* ticks: the earliest chunk's first
					 * event written; 0: none */
	unsigned free;			/* chunks free after the last pass */
	struct drain_thread *threads;	/* a hash set, open addressing */
	unsigned nr_threads, nr_slots;
	struct drain_pick *picks;	/* the chunks of one pass, in order */
};

/* Events the runtime dropped that no LOST event says: their threads
 * ended before a chunk was free to say so, or tracing stopped first (a
 * recording of a running process).  Once nothing more is written. */
uint64_t drain_lost_unsaid(const struct drainer *d);
/* The losses counted so far are not the recording's: a running
 * process's, from before it. */
void drain_lost_from_now(struct drainer *d);

enum drain_what {
	DRAIN_FULL,		/* the chunks threads handed over */
	DRAIN_DEAD,		/* everything: the process is gone */
	DRAIN_LIVE,		/* everything, but chunks threads still fill
				 * stay theirs: only their events are taken */
	DRAIN_DISCARD,		/* as DRAIN_LIVE, the events thrown away:
				 * what was there before a recording began */
	DRAIN_KEEP,		/* the full chunks, written and left as they
				 * are: a snapshot's (../common/snapshot.h) */
};

void drain(struct drainer *d, enum drain_what what);
/* Sleep until enough chunks are handed over (seen: `published` before
 * the last pass), a request for a file comes, or timeout_ms pass. */
void drain_wait(struct drainer *d, uint32_t seen, unsigned timeout_ms);
/* Refresh the provisional info when it is due (soon after the start,
 * then once a second), so a recorder killed leaves a recent clock sample. */
void drain_keep_info(struct drainer *d);
/* The line a recording that stored everything ends with, on stderr:
 * calls, events, trace.dat's bytes, threads, how long, events lost, calls
 * the graph could not follow (if any), where (if not NULL), and what
 * --max-size dropped (if any). */
void drain_say_summary(const struct drainer *d, const char *where);
/* "; oldest 120.0 MB (...) dropped by --max-size=8.0 MB" if it dropped
 * some, for that line and the one of a recording stopped early; else "". */
const char *drain_say_cut(const struct drainer *d, char *buf, size_t len);
void drain_free(struct drainer *d);

#endif
