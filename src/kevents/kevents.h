/* SPDX-License-Identifier: GPL-2.0 */
/*
 * src/kevents/: the kernel's events of the traced process's threads
 * (record -e): system calls, context switches, wake-ups, page faults,
 * from the kernel's tracepoints through perf_event_open, into the data
 * directory's `kevents` file (src/common/kevent_format.h).
 *
 *   request.c  what -e asked for
 *   tracefs.c  where tracefs is; a tracepoint's id and fields
 *   open.c     the events, per CPU and per traced thread; why not
 *   ring.c     the per-CPU rings read into kevents
 *   keep.c     or, for a flight recording, into a bounded ring in memory,
 *              a snapshot's window of them written with it
 *   gate.c     a program held between fork and exec meanwhile
 *   control_thread.c  the runtime's own control thread told apart
 *   own_work.c the runtime's own work on the program's threads, filed
 */
#ifndef FNTRACE_KEVENTS_H
#define FNTRACE_KEVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/kevent_format.h"

struct ft_shm;
struct kev_verdicts;

/* -e's groups, the kernel's tracepoint systems by their usual names. */
#define KEV_GROUP_SYSCALLS	1u	/* raw_syscalls:sys_enter, sys_exit */
#define KEV_GROUP_SCHED		2u	/* sched:sched_switch, sched_waking */
#define KEV_GROUP_FAULTS	4u	/* exceptions:page_fault_user */

#define KEV_MAX_SYSCALLS	64
#define KEV_PASS_MS		10	/* the recorder reads the rings so often */

struct kev_request {
	unsigned groups;		/* KEV_GROUP_*; 0: none asked */
	char names[KEV_MAX_SYSCALLS][32];	/* only these (-e syscalls:read,...), */
	int syscalls[KEV_MAX_SYSCALLS];	/* their numbers, in arch's numbering */
	unsigned nr_syscalls;		/* 0: every one */
	unsigned arch;			/* whose numbers (KEV_ARCH_*): the host's
					 * until kev_request_for_arch */
};

/* One -e argument: "sched", "syscalls", "syscalls:read,write", "faults",
 * or several comma-separated groups ("sched,syscalls").  0, or -1 with
 * why in err. */
int kev_request_add(struct kev_request *req, const char *arg, char *err, size_t len);
/* The traced program's system calls are arch's (KEV_ARCH_*): the
 * numbers of the names for it.  0, or -1 with why in err (a name it
 * has no call of). */
int kev_request_for_arch(struct kev_request *req, unsigned arch, char *err, size_t len);
/* "sched,syscalls:read,write" as info and the summary say it. */
void kev_request_text(const struct kev_request *req, char *buf, size_t len);

struct kev_field {
	const char *name;
	unsigned offset, size;
};

struct kev_tracepoint {
	unsigned id;
	struct kev_field fields[4];
	unsigned nr_fields;
};

const char *kev_tracefs(void);
int kev_tracepoint(const char *tracefs, const char *event, struct kev_tracepoint *tp);

/* The tracepoints a recording uses, by what they decode to. */
enum kev_tp { TP_SYS_ENTER, TP_SYS_EXIT, TP_SWITCH, TP_WAKING, TP_FAULT, NR_TPS };

struct kev_ring {
	int fd;				/* the CPU's first event; the others
					 * write into its ring */
	int cpu;
	void *base;			/* the control page, then the data */
	size_t data_size;
	struct kev_record last;		/* the last record read, and the */
	struct kev_record last_wakeup;	/* last wake-up, and the events */
	uint64_t last_id, last_wakeup_id;	/* they came from: one read
						 * twice is kept once */
};

struct kev_counts {
	uint64_t by_kind[KEV_KINDS];
	uint64_t unwritten;		/* read, but the file took no more */
	uint64_t repeated[KEV_KINDS];	/* records read twice, kept once */
	uint64_t left_out[KEV_KINDS];	/* the runtime's control thread's */
};

/* record --overwrite: the newest records, in memory (keep.c). */
#define KEV_KEEP_OWN	256
struct kev_keep {
	struct kev_record *recs;	/* a ring of cap; NULL: the file instead */
	size_t cap;
	uint64_t put;			/* records ever put */
	uint64_t overwritten_until;	/* the latest time of one overwritten:
					 * every record after it is kept; 0:
					 * none overwritten */
	uint64_t lost_overwritten;	/* the kernel's losses in LOST records
					 * the bound overwrote */
	unsigned arch;			/* whose system calls (KEV_ARCH_*) */
	/* The runtime's own work's windows (KEV_OWN_WORK), the newest
	 * KEV_KEEP_OWN of them: not events, so kept apart from the bound. */
	struct kev_record own[KEV_KEEP_OWN];
	uint64_t own_put;
};

/* What a snapshot's kevents file holds of the kept records. */
struct kev_window {
	uint64_t written;		/* records in the file */
	uint64_t overwritten;		/* records the bound overwrote so far */
	uint64_t whole_from;		/* kev_keep.overwritten_until */
	uint64_t lost_before;		/* the kernel's losses said before the
					 * window: overwritten, or earlier */
	uint64_t cap;			/* the bound, in records */
};

struct kevents {
	struct kev_tracepoint tps[NR_TPS];
	unsigned used;			/* which of tps, a bit each */
	struct kev_ring *rings;
	unsigned nr_rings;
	int *fds;			/* every event's */
	unsigned char *fd_tps;		/* and which tracepoint it is */
	unsigned nr_fds, cap_fds;
	int out;			/* the kevents file */
	int write_failed;
	unsigned char *buf;		/* records waiting to be written */
	size_t buffered;
	unsigned char *wrap;		/* a ring record split at its end */
	struct kev_keep keep;		/* --overwrite: kept here instead */
	int finished;			/* the last read and the unsaid losses
					 * are done (kev_last) */
	const struct ft_shm *shm;	/* the traced process's buffer: its
					 * control thread's tid, or NULL */
	struct kev_verdicts *verdicts;	/* control_thread.c: each tid's */
	uint32_t own_seen, thread_seen;	/* own_work.c: windows filed (or
					 * passed) of each ring */
	struct kev_counts counts;
};

/*
 * The events of REQ on PID's threads, written into DIR/kevents, or with
 * DIR NULL (a flight recording) kept in memory, the newest KEEP bytes of
 * records: for a program about to exec (PROGRAM), enabled at its exec
 * and inherited by every thread and process it makes; for a running
 * process (record -p), on each of its threads now, and theirs.  NULL
 * when they cannot be opened, after one line saying what is missing and
 * how to allow it: the function trace is recorded all the same.
 */
struct kevents *kev_start(const struct kev_request *req, pid_t pid, int program,
			  const char *dir, size_t keep);
/* gate.c: a program's events are opened after its fork and before its
 * exec, at which they are enabled: it waits at a gate (a pipe) until the
 * recorder has tried.  Without -e, no gate (both fds -1).  0, or -1. */
int kev_gate_make(const struct kev_request *req, int gate[2]);
/* In the child: until the gate opens (or the recorder is gone). */
void kev_gate_wait(int gate[2]);
/* In the recorder: kev_start() on the program pid (NULL if none, or if
 * they could not be opened), then the gate opened whatever came of it. */
struct kevents *kev_gate_open(int gate[2], const struct kev_request *req, pid_t pid,
			      const char *dir, size_t keep);

/* control_thread.c: the records of each process's runtime control
 * thread (fntrace-ctl), as shm says its tid or /proc its name, left out
 * from now on: fntrace's own system calls are not the program's.  And
 * the runtime asked to say its own work on the program's threads. */
void kev_leave_out_control(struct kevents *k, struct ft_shm *shm);
/* Is rec one of them?  (A tid's verdict is kept.) */
int kev_of_control_thread(struct kevents *k, const struct kev_record *rec);
void kev_verdicts_free(struct kevents *k);
/* own_work.c: the windows of the runtime's own work said in the buffer's
 * header since the last call, filed as KEV_OWN_WORK records; on the LAST
 * call, past any still being written. */
void kev_file_own_work(struct kevents *k, int last);
/* Those said before now passed: of calls no event was opened for. */
void kev_own_work_from_now(struct kevents *k);
/* What the rings hold, into the file (or the memory): called as the
 * recorder drains. */
void kev_drain(struct kevents *k);
/* Once the traced threads are gone or no longer watched: the last of
 * it, and what the rings lost that no LOST record said (once). */
void kev_last(struct kevents *k);
/* kev_last, the file closed, one line of what was recorded. */
void kev_finish(struct kevents *k);
/* Closed and freed, nothing said: a recording that did not start. */
void kev_close(struct kevents *k);
/* A flight recording's snapshot (keep.c): the kept records from `from`
 * to `to` (CLOCK_MONOTONIC ns) into DIR/kevents, and what the bound left
 * out said in w; 0, or -1 said.  Then w as the snapshot's info line
 * ("snapshot_kevents: OVERWRITTEN WHOLE_FROM LOST_BEFORE CAP"). */
int kev_keep_write(const struct kev_keep *kp, const char *dir, uint64_t from, uint64_t to,
		   struct kev_window *w);
void kev_keep_info(const struct kev_window *w, char *buf, size_t len);

/* ring.c's part of kev_start and kev_finish */
int kev_ring_map(struct kev_ring *r);
void kev_ring_unmap(struct kev_ring *r);
void kev_ring_read(struct kevents *k, struct kev_ring *r);
void kev_flush(struct kevents *k);
void kev_put(struct kevents *k, const struct kev_record *rec);
/* A kevents file's header: our record's size, the kernel's system call
 * numbering (its architecture's). */
void kev_header_init(struct kev_header *h, unsigned arch);
/* keep.c's part: a ring of the newest `bytes` of records. */
int kev_keep_init(struct kev_keep *kp, size_t bytes, unsigned arch);
void kev_keep_free(struct kev_keep *kp);
void kev_keep_put(struct kev_keep *kp, const struct kev_record *rec);

#endif
