// SPDX-License-Identifier: GPL-2.0
/*
 * Crash snapshots (the kernel's ftrace_dump_on_oops), under a flight
 * recorder (record --overwrite): a thread that gets SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE or SIGABRT that will kill the process stamps "what, which
 * thread, when" into the snapshot buffer (../common/crash.h), which the
 * recorder maps too, and the default action then happens as it would
 * have.  The recorder, which holds the ring, copies its last window once
 * the process has ended and labels it with the stamp.
 *
 * The handler is ours only while the program's disposition is the
 * default: a program that sets a handler of its own (a GC, a JIT that
 * recovers from SIGSEGV, a crash reporter) or ignores the signal gets
 * exactly what it set, and pays nothing per fault; sigaction() (wrapped
 * in breakpoint.c) puts ours back when it sets the default again, and
 * reads the default back while ours stands in for it.  A crash reporter
 * that ends by resetting the default and raising the signal again (the
 * usual way) is stamped then, its own calls in the window.
 *
 * The handler does nothing unsafe on a crashing thread: a compare-and-swap
 * and a few stores into memory mapped for the process's life, then
 * system calls (clock_gettime, prctl, futex, rt_tgsigqueueinfo).  It takes no
 * lock, so a crash inside the runtime, on the control thread, or with
 * ftrace_lock held stamps as well; it writes no event and waits for
 * nobody.  SA_RESETHAND gives the default back as the kernel enters it,
 * so a second fault in it, or in another thread meanwhile, kills as
 * without fntrace.  It runs on the program's alternate signal stack if
 * the thread has one (SA_ONSTACK); a thread whose stack overflowed with
 * none is killed by the kernel before any handler runs, and the recorder
 * still says "crash" from the process's wait status.
 */
#include "crash.h"
#include "interpose.h"
#include "sigmask.h"
#include "../common/crash.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const struct {
	int sig;
	const char *name;
} fatal[] = {
	{ SIGSEGV, "SIGSEGV" },
	{ SIGBUS, "SIGBUS" },
	{ SIGILL, "SIGILL" },
	{ SIGFPE, "SIGFPE" },
	{ SIGABRT, "SIGABRT" },
};
#define NR_FATAL (sizeof(fatal) / sizeof(fatal[0]))

/* The stamp's place; NULL while no flight recorder holds the buffer. */
static struct ft_crash *stamp_at;

static const char *fatal_name(int sig)
{
	for (unsigned i = 0; i < NR_FATAL; i++)
		if (fatal[i].sig == sig)
			return fatal[i].name;
	return NULL;
}

static void stamp(struct ft_crash *c, int sig, const siginfo_t *si)
{
	uint32_t none = FT_CRASH_NONE;
	struct timespec now;

	/* The first crash of the program's processes is the one told. */
	if (!atomic_compare_exchange_strong(&c->state, &none, FT_CRASH_STAMPING))
		return;
	c->pid = (uint32_t)getpid();
	c->tid = (uint32_t)syscall(SYS_gettid);
	c->code = si ? si->si_code : 0;
	c->addr = si ? (uint64_t)(uintptr_t)si->si_addr : 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	c->monotonic_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	strncpy(c->signal, fatal_name(sig), sizeof(c->signal));
	syscall(SYS_prctl, PR_GET_NAME, c->comm, 0, 0, 0);
	atomic_store(&c->state, FT_CRASH_STAMPED);
	/* The recorder's watcher sleeps on it (a futex of shared memory, not
	 * a descriptor: the program may have closed ours). */
	syscall(SYS_futex, &c->state, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/*
 * The default action, as if we had not been here: SA_RESETHAND made it
 * the disposition already.  A fault (si_code > 0: the kernel's, for the
 * instruction) needs nothing more: the instruction runs again as the
 * handler returns, and faults again, so the core dump shows it and the
 * kernel's own siginfo, and the wait status the same signal.  (Sent
 * again instead, a SIGSEGV is taken by qemu-user for a fault of its own,
 * and qemu dies of an assertion.)  A signal that was sent (kill, raise,
 * abort) is sent again with its siginfo, and delivered as this handler
 * returns (it is blocked until then).
 */
static void on_fatal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	pid_t tid = (pid_t)syscall(SYS_gettid);

	if (stamp_at)
		stamp(stamp_at, sig, si);
	if (si->si_code <= 0 && syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, sig, si))
		syscall(SYS_tgkill, getpid(), tid, sig);
	errno = saved;
}

static void our_action(struct sigaction *sa)
{
	struct sigaction all = { .sa_sigaction = on_fatal,
				 .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND };

	sigfillset(&all.sa_mask);
	*sa = *ft_handler_mask_free(&all, sa);
}

static int is_default(const struct sigaction *sa)
{
	return !(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == SIG_DFL;
}

void ft_crash_start(struct ft_snap *s)
{
	struct sigaction ours, now;

	if (!ft_real_sigaction())
		return;
	stamp_at = ft_crash_of(s);
	our_action(&ours);
	for (unsigned i = 0; i < NR_FATAL; i++)
		if (!ft_real_sigaction()(fatal[i].sig, NULL, &now) && is_default(&now))
			ft_real_sigaction()(fatal[i].sig, &ours, NULL);
}

int ft_crash_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction ours, prev;
	int ret;

	if (!stamp_at || !fatal_name(sig))
		return 1;
	our_action(&ours);
	ret = ft_real_sigaction()(sig, act && is_default(act) ? &ours : act, &prev);
	if (ret == 0 && old && (prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction == on_fatal) {
		memset(old, 0, sizeof(*old));
		old->sa_handler = SIG_DFL;
	} else if (ret == 0 && old) {
		*old = prev;
	}
	return ret;
}
