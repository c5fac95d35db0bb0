// SPDX-License-Identifier: GPL-2.0
/*
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE) makes every CPU
 * running a thread of this process execute a core-serialising instruction
 * before it returns: exactly the kernel's sync between patch steps, and
 * one system call however many threads there are.
 *
 * Where membarrier is missing (old kernel, seccomp, or FNTRACE_NO_MEMBARRIER
 * for tests) or cannot reach the code threads run (an emulator's
 * translated blocks, ftrace_cpu_emulated()), every other thread is sent a
 * signal and each acknowledges from its handler: entering and leaving the
 * kernel serialises the core, and an emulator delivers a signal only
 * between two translated blocks, looking the code up again.  A thread
 * that blocks the signal cannot acknowledge; after a second of waiting (of
 * the waiting thread's own time: a stopped process waits for nothing) the
 * sync gives up and says so.
 */
#include "sync.h"
#include "ftrace.h"
#include "tasks.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <linux/membarrier.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int use_membarrier;
static int sync_signal;
static _Atomic unsigned acks, left;
static _Atomic int parked;	/* threads hold in the handler while set */

#define MAX_SIGNALLED 4096

static pid_t answered[MAX_SIGNALLED];	/* who acknowledged, in order */

static void on_sync_signal(int sig)
{
	unsigned i = atomic_fetch_add(&acks, 1);

	if (i < MAX_SIGNALLED)
		answered[i] = syscall(SYS_gettid);
	while (atomic_load(&parked))
		;
	atomic_fetch_add(&left, 1);
}

static int membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

/*
 * A real-time signal programs are unlikely to use: the highest that can
 * be sent.  Under qemu-user the last ones are the emulator's own, and
 * tgkill() refuses them: each candidate is tried on this thread, whose
 * handler just counts an answer (reset before every sync).
 */
static int install_sync_signal(void)
{
	struct sigaction sa = { .sa_handler = on_sync_signal, .sa_flags = SA_RESTART }, old;
	pid_t self = syscall(SYS_gettid);

	for (int sig = SIGRTMAX; !sync_signal && sig >= SIGRTMIN; sig--) {
		if (sigaction(sig, &sa, &old))
			return -1;
		if (syscall(SYS_tgkill, getpid(), self, sig) == 0)
			sync_signal = sig;
		else
			sigaction(sig, &old, NULL);
	}
	return sync_signal ? 0 : -1;
}

int ftrace_sync_signal(void)
{
	return install_sync_signal() ? 0 : sync_signal;
}

void ftrace_thread_mask(int how, const sigset_t *set, sigset_t *old)
{
	syscall(SYS_rt_sigprocmask, how, set, old, _NSIG / 8);
}

void ftrace_sync_hold(sigset_t *old)
{
	sigset_t sync;
	int sig = ftrace_sync_signal();

	sigemptyset(&sync);
	if (sig)
		sigaddset(&sync, sig);
	ftrace_thread_mask(SIG_BLOCK, &sync, old);
}

void ftrace_sync_release(const sigset_t *old)
{
	int saved = errno;

	ftrace_thread_mask(SIG_SETMASK, old, NULL);
	errno = saved;
}

/* Held by the image before this one, whose runtime chose the same signal
 * (the same probe, on the same system).  Nothing to do if no real-time
 * signal is blocked: then the handler is installed when first needed. */
void ftrace_sync_after_exec(void)
{
	sigset_t mask, sync;
	int held = 0;

	ftrace_thread_mask(SIG_BLOCK, NULL, &mask);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		held |= sigismember(&mask, sig);
	if (!held || !ftrace_sync_signal())
		return;
	sigemptyset(&sync);
	sigaddset(&sync, sync_signal);
	ftrace_thread_mask(SIG_UNBLOCK, &sync, NULL);
}

int ftrace_cpu_emulated(void)
{
	static int known = -1;

	if (known < 0)
		known = arch_cpu_emulated() || getenv("FNTRACE_EMULATED");
	return known;
}

int ftrace_sync_init(void)
{
	static int ready;

	if (ready)
		return 0;
	if (!getenv("FNTRACE_NO_MEMBARRIER") && !ftrace_cpu_emulated() &&
	    membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE) == 0) {
		use_membarrier = 1;
	} else {
		if (install_sync_signal())
			return -1;
		ft_debug("membarrier %s: syncing threads with signal %d",
			 ftrace_cpu_emulated() ? "does not reach an emulated CPU" : "unavailable",
			 sync_signal);
	}
	ready = 1;
	return 0;
}

/* Signal every other thread; their ids go to tids, their count is
 * returned. */
static unsigned signal_others(pid_t *tids)
{
	pid_t self = syscall(SYS_gettid), pid = getpid();
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	unsigned sent = 0;

	while (d && (e = readdir(d)) && sent < MAX_SIGNALLED) {
		pid_t tid = atoi(e->d_name);

		if (tid > 0 && tid != self && !ft_task_foreign(tid) &&
		    syscall(SYS_tgkill, pid, tid, sync_signal) == 0)
			tids[sent++] = tid;
	}
	if (d)
		closedir(d);
	return sent;
}

static int has_answered(pid_t tid, unsigned n)
{
	for (unsigned i = 0; i < n && i < MAX_SIGNALLED; i++)
		if (answered[i] == tid)
			return 1;
	return 0;
}

/* Has every signalled thread answered, or ended (and so never will)? */
static int all_accounted(const pid_t *tids, unsigned sent)
{
	unsigned n = atomic_load(&acks);

	for (unsigned i = 0; i < sent; i++)
		if (!has_answered(tids[i], n) && syscall(SYS_tgkill, getpid(), tids[i], 0) == 0)
			return 0;
	return 1;
}

/*
 * The time this thread has run since: a process stopped (SIGSTOP, a
 * debugger) in the middle of a sync has its threads answer as soon as it
 * runs again, and the time it stood still must not count against them.
 */
static uint64_t elapsed_ns(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	return (now.tv_sec - since->tv_sec) * 1000000000ull + now.tv_nsec - since->tv_nsec;
}

/* Answers come within microseconds: yield, do not sleep (a sleep lasts a
 * timer tick, milliseconds, on many machines). */
static int sync_by_signals(void)
{
	static pid_t tids[MAX_SIGNALLED];
	struct timespec start;
	unsigned sent, spins = 0;

	atomic_store(&acks, 0);
	atomic_store(&left, 0);
	sent = signal_others(tids);
	if (!sync_signal)
		return -1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
	while (atomic_load(&acks) < sent) {
		/* Now and then, count threads that ended meanwhile as answered;
		 * one that blocks the signal never answers: give up after a
		 * second. */
		if (++spins % 64 == 0 && all_accounted(tids, sent))
			break;
		if (elapsed_ns(&start) > 1000000000ull) {
			ft_warn("thread sync: %u of %u threads did not answer",
				sent - atomic_load(&acks), sent);
			return -1;
		}
		sched_yield();
	}
	return 0;
}

int ftrace_stop_others(void)
{
	if (install_sync_signal())
		return -1;
	atomic_store(&parked, 1);
	if (sync_by_signals() == 0)
		return 0;
	atomic_store(&parked, 0);
	return -1;
}

/* Let them go, and wait until every one has left the handler: one still
 * spinning in it would take the next stop for its own. */
void ftrace_release_others(void)
{
	unsigned stopped = atomic_load(&acks);

	atomic_store(&parked, 0);
	while (atomic_load(&left) < stopped)
		sched_yield();
}

int ftrace_sync_cores(void)
{
	if (use_membarrier)
		return membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE);
	return sync_by_signals();
}
