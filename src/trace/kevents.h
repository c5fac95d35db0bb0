/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A data directory's kernel events (record -e; src/common/kevent_format.h),
 * read whole at tr_open and put in each thread's time order: its system
 * calls, context switches and page faults, and the wake-ups it made or
 * was woken by (a wake-up of one traced thread by another is in both
 * threads' lists).  A directory without them has none: nothing changes.
 */
#ifndef FNTRACE_KEVENTS_READ_H
#define FNTRACE_KEVENTS_READ_H

#include <stddef.h>
#include <stdint.h>

#include "../common/kevent_format.h"

/* One of a thread's events: recs[idx], in thread tid's list. */
struct tr_kev_ref {
	uint32_t tid;
	uint32_t idx;
};

struct tr_kevents {
	int present;			/* the file is there */
	struct kev_record *recs;	/* as the file has them */
	size_t nr;
	struct tr_kev_ref *refs;	/* by thread, then time */
	size_t nr_refs;
	uint64_t counts[KEV_KINDS];	/* records by kind; [KEV_LOST]: the
					 * events the rings lost */
	uint64_t own_work[KEV_KINDS];	/* records left out, by kind: the
					 * runtime's own work's (a system
					 * call is two) */
	uint64_t off_cpu_ns;		/* from each switch out to its return */
	unsigned arch;			/* whose system call numbers (KEV_ARCH_*) */
	int truncated;			/* the file ends inside a record */
	char bad[128];			/* why it could not be read, or "" */
};

/* DIR/kevents into k; 0 whatever the file is (k->bad says why it could
 * not be read), -1 out of memory. */
int tr_kevents_read(const char *dir, struct tr_kevents *k);
void tr_kevents_free(struct tr_kevents *k);
/* Thread tid's events, in time order, *nr of them; NULL if none. */
const struct tr_kev_ref *tr_kevents_of(const struct tr_kevents *k, uint32_t tid, size_t *nr);
/* A thread's times off the CPU, from each switch out to its return, in
 * time order; `before[i]` is the time off CPU before the i-th. */
struct tr_off_cpu {
	uint64_t *out, *in, *before;
	size_t nr;
};

/* Those of a thread's events refs (nr of them; tr_kevents_of's, or
 * tr_thread_kevents's); 0, or -1 out of memory.  None without sched
 * events. */
int tr_off_cpu_init(const struct tr_kevents *k, const struct tr_kev_ref *refs, size_t nr,
		    struct tr_off_cpu *o);
void tr_off_cpu_free(struct tr_off_cpu *o);
/* The thread's time off the CPU between start and end (ns). */
uint64_t tr_off_cpu_between(const struct tr_off_cpu *o, uint64_t start, uint64_t end);

/* "read(3, 0x7ffd5e0c1a17, 1)": a system call's entry, its first three
 * arguments (the table gives no count of them), an error or a small
 * number in decimal, anything larger in hex. */
const char *tr_kev_call_text(const struct tr_kevents *k, const struct kev_record *enter,
			     char *buf, size_t len);
/* The name of call nr, by the recording's architecture. */
const char *tr_kev_call_name(const struct tr_kevents *k, unsigned nr, char *buf, size_t len);
/* What it returned: "-11 EAGAIN", "4096", "0x7f3a5c000000". */
const char *tr_kev_return_text(int64_t ret, char *buf, size_t len);
/* "kev_waits-4607", or "pid 15" for a task the recording has no name
 * for: comm is the thread's name if known, else NULL. */
const char *tr_kev_task_text(const char *comm, uint32_t tid, char *buf, size_t len);

/* A switch out's state as ps says it: "R", "R+" (preempted), "S", "D" ... */
const char *tr_kev_state(uint32_t prev_state);
/* Its word: "running", "preempted", "sleeping", "disk sleep" ... */
const char *tr_kev_state_name(uint32_t prev_state);

#endif
