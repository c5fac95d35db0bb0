/* SPDX-License-Identifier: GPL-2.0 */
/*
 * src/attach/: the runtime loaded into a process that was started
 * without it (fntrace attach), and taken out again (detach): whether it
 * may be (attach_check.c), the load under ptrace (attach_load.c), the
 * process's own root (attach_root.c) and what is staged in it
 * (attach_stage.c), the threads that block SIGTRAP (attach_traps.c), and
 * which thread may be taken, and where (attach_safe.c).
 */
#ifndef FNTRACE_ATTACH_H
#define FNTRACE_ATTACH_H

#include <stddef.h>
#include <sys/types.h>

/* May fntrace attach to pid?  0, or -1 after one line that says why not
 * (attach_check.c). */
int attach_check(pid_t pid);
/* Load the runtime lib into pid and start its control endpoint, giving
 * up after timeout seconds; a runtime loaded before and detached since
 * is only started again.  0, or -1 after one line (attach_load.c). */
int attach_load(pid_t pid, const char *lib, unsigned timeout);
/* Stop a thread under ptrace: the signal it was taking (to pass on when
 * it is let go), 0, or -1 (attach_load.c). */
int attach_ptrace_stop(pid_t tid);
/* Has the time limit of attach_load() run out?  (attach_load.c) */
int attach_timed_out(void);
/* A thread of the process stopped under ptrace where its own code runs
 * (not in the loader, nor in ThreadSanitizer's runtime), with the signal
 * to pass on when it is let go in *sig; or -1 after one line
 * (attach_safe.c). */
pid_t attach_seize_safe(pid_t pid, int *sig);
/* May ThreadSanitizer's program be attached to here?  (attach_check.c) */
int attach_is_tsan(pid_t pid);
/* attach_traps.c: SIGTRAP out of the masks of the threads that block it
 * ("TID:MASK" each, space-separated, in list), and back in on detach; held: the
 * thread attach holds stopped already. */
int attach_unblock_traps(pid_t pid, pid_t held, char *list, size_t len);
int detach_traps_list(pid_t pid, char *list, size_t len);
void detach_reblock_traps(pid_t pid, const char *list);
/* A process's root as we reach it: "" if it is ours (the same root, in
 * the same mount namespace), else /proc/PID/root. */
void attach_root(pid_t pid, char *buf, size_t len);
/* The runtime where the process can dlopen it (a copy in its root's /tmp,
 * or top, if that is not ours, with the files it cannot open by their
 * paths and the libraries the runtime needs that it has not loaded), and
 * those copies removed once it is loaded; 0, or -1 after one line
 * (attach_stage.c). */
#define ATTACH_MAX_DEPS 8
struct attach_staging {
	char runtime[4096];	/* the path the process dlopen()s */
	unsigned nr_deps;	/* libraries it lacks, to dlopen() first */
	char deps[ATTACH_MAX_DEPS][4096];
};
int attach_stage_runtime(pid_t pid, const char *lib, struct attach_staging *s);
void attach_unstage_runtime(pid_t pid);

#endif
