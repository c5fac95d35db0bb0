/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flight recording (record --overwrite, record -p PID --overwrite): the
 * program's ring overwrites, nothing is drained and nothing written
 * while it runs; each snapshot its control thread takes (fntrace ctl PID
 * snapshot 1, a program thread's request) is written out as a data
 * directory, DIR/snapshot.N, and when the program ends (or the recording
 * stops) the recorder copies the ring's last window itself, the last
 * snapshot.  The directory's layout is in flight_dir.c.
 */
#ifndef FNTRACE_FLIGHT_H
#define FNTRACE_FLIGHT_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "datadir.h"
#include "drain.h"
#include "../kevents/kevents.h"
#include "../common/snapshot.h"

struct flight {
	char dir[4000];			/* DIR */
	char shared[4096];		/* DIR/shared: funcs-PID, args, enums */
	struct ft_shm *ring;
	struct ft_snap *snap;
	int snap_fd;			/* the snapshot buffer's, for the program */
	int bell;			/* readable once a snapshot was taken */
	uint32_t seen;			/* the snapshot's seq last looked at */
	unsigned written;		/* snapshot.1 to snapshot.written */
	const struct datadir_info *run;	/* what each snapshot's info says of
					 * the run (command, filters...) */
	/* The function tables of the processes whose events a snapshot
	 * holds (d's threads), into its directory: 0, or -1. */
	int (*tables)(void *arg, const char *dir, const struct drainer *d);
	void *tables_arg;
	uint64_t bytes;			/* of the snapshots' trace.dat files */
	char why[128];			/* the last snapshot's words (a crash's) */
	int dir_made;			/* DIR is there (the keeper makes it at
					 * the first crash) */
	uint32_t own_pid;		/* the program's pid as it knows it (as
					 * its crash stamp says it) */
	int pidfd;			/* record -p's and the keeper's: the
					 * program's, for its end and how it
					 * ended; -1 */
	/* flight_crash.c: a thread asleep until a process of the program
	 * stamps a crash, which then rings the bell. */
	pthread_t watcher;
	int watching;
	_Atomic int stop_watching;
	int crash_seen;			/* the stamp was looked at */
	struct kevents *kev;		/* -e: the kernel's events, kept in
					 * memory, a window into each snapshot;
					 * NULL */
};

/* DIR made (a previous one kept as DIR.old), for a program the recorder
 * starts: its snapshot buffer, the ring's size, and the bell, which the
 * program inherits.  0, or -1 said. */
int flight_start(struct flight *f, const char *dir, struct ft_shm *ring,
		 const struct datadir_info *run);
/* The same for a running process (record -p), whose snapshot buffer and
 * bell came over its control endpoint; a crash stamp left in its ring
 * from before is cleared. */
int flight_start_attached(struct flight *f, const char *dir, struct ft_shm *ring,
			  int snap_fd, int bell, const struct datadir_info *run);
/* The same for run --dump-on-oops's keeper (keeper.c), which holds the
 * ring a program it did not start writes into: a snapshot buffer of its
 * own, which the program never sees, and DIR made only when a snapshot
 * is written; the program writes its tables in `tables`. */
int flight_start_keeper(struct flight *f, const char *dir, const char *tables,
			struct ft_shm *ring, const struct datadir_info *run);
/* flight.tables for a program the recorder started: the tables its
 * processes wrote in DIR/shared (FNTRACE_DIR). */
int flight_shared_tables(void *arg, const char *dir, const struct drainer *d);
/* Write out the snapshot taken since the last look, if any.  Never
 * waits: one being taken rings the bell when it is done. */
void flight_take_new(struct flight *f);
/* record -p: snapshots written out until over(arg), Ctrl-C (or
 * SIGTERM), or end_ns on CLOCK_MONOTONIC (0: none); asleep meanwhile
 * but for the snapshots, a crash, and pid's end (its pidfd kept in
 * f->pidfd). */
void flight_watch(struct flight *f, pid_t pid, uint64_t end_ns, int (*over)(void *), void *arg);
/* The last snapshot, copied by the recorder: reason FT_SNAP_END (the
 * program has ended; its exit in run) or FT_SNAP_STOPPED. */
void flight_final(struct flight *f, unsigned reason, int program_gone);
/* Why the last snapshot of a program that ended with status: FT_SNAP_CRASH
 * if it died of a crash signal, else FT_SNAP_END; its words (which signal,
 * which thread, where: the stamp of flight_crash.c) into f->why. */
unsigned flight_end_reason(struct flight *f, int status);
/* The same for a program that is not the recorder's child (record -p, the
 * keeper), which has ended: its wait status from f->pidfd where the kernel
 * tells it, said into exit (as a data directory's info says it: "signal
 * 11 SIGSEGV (core dumped)"), else from the stamp alone (exit left as it
 * is). */
unsigned flight_gone_reason(struct flight *f, char *exit, size_t len);
/* Watch for a crash stamp (flight_crash.c): the bell rings when one is
 * written.  0, or -1 (said). */
int flight_crash_watch(struct flight *f);
void flight_crash_unwatch(struct flight *f);
/* A crash of a process of the program other than the one the recorder
 * started, once it is gone: a snapshot of its own, then (that one's
 * crash is told by the last snapshot).  Called when the bell rang. */
void flight_crash_take(struct flight *f);
/* One line: how many snapshots, where. */
void flight_say_summary(const struct flight *f);
void flight_close(struct flight *f);

/* Is path a flight recording's directory of fntrace's (flight_dir.c)?
 * Remove one (its snapshots, shared/, the flight file): 0, or -1. */
int flight_dir_is_ours(const char *path);
int flight_dir_remove(const char *path);
/* DIR and DIR/shared made, with its flight file, the previous DIR
 * (fntrace's) kept as DIR.old: 0, or -1 said. */
int flight_dir_create(const char *dir, const char *shared, const struct datadir_info *run);
/* A directory of plain files (the keeper's tables) removed: 0, or -1. */
int flight_tables_remove(const char *path);
/* DIR/flight written again (the program's pid, once it runs). */
int flight_dir_tag(const char *dir, const struct datadir_info *run);

#endif
