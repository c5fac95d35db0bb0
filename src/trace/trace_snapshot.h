/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a snapshot's data directory says of it (trace_snapshot.c): the
 * `snapshot*` lines of its info, written from the snapshot buffer's
 * header (src/common/snapshot.h) by the recorder, or by the runtime for
 * `fntrace ctl PID snapshot`.
 */
#ifndef FNTRACE_TRACE_SNAPSHOT_H
#define FNTRACE_TRACE_SNAPSHOT_H

#include <stdint.h>

struct tr_snapshot {
	unsigned number;	/* the Nth taken into its buffer; 0: not a
				 * snapshot */
	char *reason;		/* control, program, end, stopped; NULL if
				 * not said */
	uint32_t asked_by;	/* the writer's pid (control), the asking
				 * thread's tid (program) */
	uint32_t taken_by;	/* the thread that copied it, or the recorder */
	uint64_t taken_ns;	/* CLOCK_MONOTONIC, as the events' times */
	uint64_t realtime_ns;	/* the wall clock then */
	uint64_t copy_ns;	/* how long the copy took */
	uint32_t chunks;	/* chunks copied */
	uint32_t skipped;	/* chunks left out: they changed hands at each try */
	uint32_t chunk_size;	/* the ring's, in bytes; 0 if not said */
	uint64_t lost;		/* events the ring had dropped until then */
	uint64_t published;	/* chunks the ring had published until then */
	uint64_t overtaken;	/* chunks published while it was copied, if
				 * a whole turn of the ring or more; else 0 */
	char *why;		/* more, in words; NULL if none */
	/* record --overwrite -e: the kernel events the recorder kept in
	 * memory, of which its kevents file holds the window */
	int has_kev;		/* snapshot_kevents: said */
	uint64_t kev_overwritten;	/* by the bound, since the start */
	uint64_t kev_whole_from;	/* every one later is kept; 0: all */
	uint64_t kev_lost_before;	/* the kernel's losses said before the
					 * file's window: not in its LOST
					 * records */
	uint64_t kev_cap;	/* the bound, in events */
};

/* One `snapshot...: value` line of info: 0, -1 for a bad value. */
int tr_snapshot_field(struct tr_snapshot *s, const char *key, char *v);
void tr_snapshot_free(struct tr_snapshot *s);

struct trace_data;
/* td->dir is a flight recording's directory, not a recording: -1, with
 * the snapshots to read instead in td->err; 0 if it is not one. */
int tr_flight_dir_fail(struct trace_data *td);

#endif
