/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Making every thread of the process see new text: the user-space form of
 * the kernel's "sync every core" between the steps of a live patch.
 */
#ifndef FNTRACE_SYNC_H
#define FNTRACE_SYNC_H

#include <signal.h>
#include <stdint.h>

/* Does the process run on an emulated CPU (qemu-user)?  The architecture
 * may know (arch_cpu_emulated); fntrace says so for the programs it starts
 * under qemu (FNTRACE_EMULATED). */
int ftrace_cpu_emulated(void);
/* Ready the mechanism (registers with membarrier, or chooses the signal);
 * 0 on success.  Called at start-up, before the program's threads can
 * block the signal. */
int ftrace_sync_init(void);
/* The signal the wrappers keep deliverable in every thread (sigmask.c):
 * the sync signal where threads are synced by it, else 0. */
int ftrace_sync_signal_kept(void);
/* The program's sigaction() of the sync signal, recorded to be chained
 * behind ours: 0, or 1 if sig is not the sync signal. */
int ftrace_sync_sigaction(int sig, const struct sigaction *act, struct sigaction *old);
/* Why the last failed sync failed, in words for the user. */
const char *ftrace_sync_failure(void);
/* The signal that syncs threads where membarrier does not, its handler
 * installed: a thread that blocks every signal unblocks this one to take
 * part.  0 if no signal can be sent. */
int ftrace_sync_signal(void);
/*
 * A sync signal sent to a thread that exec()s stays pending across the
 * exec, into an image where it has the default action: death.  So the
 * thread blocks it first (a blocked mask outlives exec too), and unblocks
 * it, answering, if the exec fails; the new image's runtime unblocks it once
 * its own handler is in place (ftrace_sync_after_exec).
 */
void ftrace_sync_hold(sigset_t *old);
/* This thread's signal mask, set with the system call: not through the
 * program's view of it (breakpoint.c), whose first call looks up the real
 * one with dlsym, which takes a loader lock. */
void ftrace_thread_mask(int how, const sigset_t *set, sigset_t *old);
void ftrace_sync_release(const sigset_t *old);
void ftrace_sync_after_exec(void);
/* Around a wait whose own mask blocks the sync signal: the thread counts
 * as synced meanwhile.  begin gives a slot for end, or 0 (no room: keep
 * the signal deliverable instead). */
int ftrace_sync_wait_begin(void);
void ftrace_sync_wait_end(int slot);
/* Every thread of the process passes a core-serialising point. */
int ftrace_sync_cores(void);
/* Every other thread seen outside each range [lo, hi) of ranges (the
 * handler of the sync signal reads where it was), waiting for it while
 * one is inside: 0, or -1 if one stayed (ftrace_sync_failure says). */
int ftrace_sync_pcs_outside(const uintptr_t (*ranges)[2], unsigned n);

/* The stop-the-world baseline of the benchmarks (FNTRACE_PATCH=stop):
 * park every other thread in a signal handler, and let them go. */
int ftrace_stop_others(void);
void ftrace_release_others(void);

#endif
