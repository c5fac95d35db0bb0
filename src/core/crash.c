// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace_dump_on_oops: a thread that gets SIGSEGV, SIGBUS, SIGILL, SIGFPE
 * or SIGABRT that will kill the process stamps "what, which thread, when"
 * into the ring's header (../common/crash.h), and the default action
 * then happens as it would have.  Whoever holds the ring (record
 * --overwrite's recorder, record -p --overwrite's while it records, run
 * --dump-on-oops's keeper) copies its last window once the process has
 * ended and labels it with the stamp.
 *
 * The handler is ours only while the program's disposition is the
 * default: a program that sets a handler of its own (a GC, a JIT that
 * recovers from SIGSEGV, a crash reporter) or ignores the signal gets
 * exactly what it set, and pays nothing per fault; sigaction() (wrapped
 * in breakpoint.c) puts ours back when it sets the default again, and
 * reads that default back while ours stands in for it.  A crash reporter
 * that ends by resetting the default and raising the signal again (the
 * usual way) is stamped then, its own calls in the window.
 *
 * Switched on and off while the program runs (record -p attaching and
 * detaching), two rules keep it safe:
 *
 *  - What the handler touches is never taken away.  The stamp lies in
 *    the ring's header, which the runtime maps once and never unmaps, so
 *    a thread whose signal was delivered before the handler was taken
 *    off still stamps into memory that is there (and is then read by
 *    nobody, or by a recorder still watching).  Switching off needs no
 *    wait for handlers under way, and no handler can fault on our memory.
 *  - The program's disposition is put back exactly as the kernel held
 *    it (handler, flags, mask), and our bookkeeping never parts from the
 *    kernel's: every change of a crash signal's disposition, the
 *    program's sigaction() and our switching alike, is made under one
 *    gate, held with every signal blocked so that a handler calling
 *    sigaction() on the same thread cannot wait for itself.  A default
 *    the program sets goes to the kernel first and is read back from it,
 *    so that what is put back, and what the program reads, is the
 *    kernel's own.
 *
 * The handler does nothing unsafe on a crashing thread: a compare-and-swap
 * and a few stores into the ring's header, then system calls
 * (clock_gettime, prctl, futex, rt_tgsigqueueinfo).  It takes no lock, so
 * a crash inside the runtime, on the control thread, or with ftrace_lock
 * or the gate held stamps as well; it writes no event and waits for
 * nobody.  SA_RESETHAND gives the default back as the kernel enters it,
 * so a second fault in it, or in another thread meanwhile, kills as
 * without fntrace.  It runs on the program's alternate signal stack if
 * the thread has one (SA_ONSTACK); a thread whose stack overflowed with
 * none is killed by the kernel before any handler runs, and the reader
 * still says "crash" from the process's wait status where it has one.
 */
#include "buffer.h"
#include "crash.h"
#include "control.h"
#include "interpose.h"
#include "sigmask.h"
#include "../common/shm.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The stamp's place, in the ring's header; NULL while switched off. */
static struct ft_crash *_Atomic stamp_at;

/* The kernel's own struct sigaction, whose layout differs between
 * arches: kept and put back byte for byte, so that even the flags libc
 * adds as it installs an action (SA_RESTORER) are as they were. */
struct kernel_action {
	_Alignas(16) unsigned char bytes[64];
};

/* Per signal, under the gate: does our handler stand in for the
 * program's default, and that default as the kernel held it (and as
 * libc reads it, for the program's sigaction() to read back). */
static struct {
	int ours;
	struct kernel_action kernel;
	struct sigaction dfl;
} disp[NR_FATAL];
static atomic_flag gate = ATOMIC_FLAG_INIT;

static int fatal_index(int sig)
{
	for (unsigned i = 0; i < NR_FATAL; i++)
		if (fatal[i].sig == sig)
			return (int)i;
	return -1;
}

static void stamp(struct ft_crash *c, unsigned i, const siginfo_t *si)
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
	memcpy(c->signal, fatal[i].name, strlen(fatal[i].name) + 1);
	syscall(SYS_prctl, PR_GET_NAME, c->comm, 0, 0, 0);
	atomic_store(&c->state, FT_CRASH_STAMPED);
	/* The reader's watcher sleeps on it (a futex of shared memory, not
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
	int saved = errno, i = fatal_index(sig);
	struct ft_crash *c = atomic_load(&stamp_at);
	pid_t tid = (pid_t)syscall(SYS_gettid);

	if (c && i >= 0)
		stamp(c, (unsigned)i, si);
	if (si->si_code <= 0 && syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, sig, si))
		syscall(SYS_tgkill, getpid(), tid, sig);
	errno = saved;
}

/* ---- the gate ---- */

/* Every signal blocked first: a handler that calls sigaction() must not
 * find the gate held by the code it interrupted. */
static void gate_enter(sigset_t *was)
{
	sigset_t all;

	sigfillset(&all);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, was, _NSIG / 8);
	while (atomic_flag_test_and_set(&gate))
		sched_yield();
}

static void gate_leave(const sigset_t *was)
{
	atomic_flag_clear(&gate);
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, was, NULL, _NSIG / 8);
}

void ft_crash_after_fork(void)
{
	atomic_flag_clear(&gate);
}

/* ---- dispositions, under the gate ---- */

static int is_default(const struct sigaction *sa)
{
	return !(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == SIG_DFL;
}

static void our_action(struct sigaction *sa)
{
	struct sigaction all = { .sa_sigaction = on_fatal,
				 .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND };

	sigfillset(&all.sa_mask);
	*sa = *ft_handler_mask_free(&all, sa);
}

static int kernel_action(int sig, const struct kernel_action *act, struct kernel_action *old)
{
	return syscall(SYS_rt_sigaction, sig, act, old, _NSIG / 8) ? -1 : 0;
}

/* Ours in place of the default the kernel holds now, kept as it is. */
static void stand_in(unsigned i)
{
	struct sigaction ours;

	if (ft_real_sigaction()(fatal[i].sig, NULL, &disp[i].dfl) || !is_default(&disp[i].dfl) ||
	    kernel_action(fatal[i].sig, NULL, &disp[i].kernel))
		return;
	our_action(&ours);
	disp[i].ours = !ft_real_sigaction()(fatal[i].sig, &ours, NULL);
}

/* The default ours stood in for, back as the kernel held it. */
static void step_back(unsigned i)
{
	if (disp[i].ours && !kernel_action(fatal[i].sig, &disp[i].kernel, NULL))
		disp[i].ours = 0;
}

/* The program's sigaction(): its action goes to the kernel as it is
 * (a default too, then read back and stood in for). */
static int program_sets(unsigned i, const struct sigaction *act, struct sigaction *prev)
{
	int was_ours = disp[i].ours;

	if (ft_real_sigaction()(fatal[i].sig, act, prev))
		return -1;
	if (was_ours)
		*prev = disp[i].dfl;
	if (act) {
		disp[i].ours = 0;
		if (atomic_load(&stamp_at) && is_default(act))
			stand_in(i);
	}
	return 0;
}

/* ---- switching ---- */

static int set(int on)
{
	struct ft_shm *ring = ft_buffer_shm();
	sigset_t was;

	if (!ft_real_sigaction() || (on && !ring))
		return -1;
	gate_enter(&was);
	/* The stamp's place before any handler that may use it, and
	 * cleared after the last is gone (one delivered before still finds
	 * the header, which stays mapped). */
	if (on)
		atomic_store(&stamp_at, &ring->crash);
	for (unsigned i = 0; i < NR_FATAL; i++) {
		if (!on)
			step_back(i);
		else if (!disp[i].ours)
			stand_in(i);
	}
	if (!on)
		atomic_store(&stamp_at, NULL);
	gate_leave(&was);
	return 0;
}

int ft_crash_start(void)
{
	return set(1);
}

int ft_crash_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	int i = fatal_index(sig), ret;
	struct sigaction prev;
	sigset_t was;

	if (i < 0 || !ft_real_sigaction())
		return 1;
	gate_enter(&was);
	ret = program_sets((unsigned)i, act, &prev);
	gate_leave(&was);
	if (ret == 0 && old)
		*old = prev;
	return ret;
}

/* ---- the ftrace_dump_on_oops file ---- */

int ft_crash_read(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%d\n", atomic_load(&stamp_at) != NULL);
	return 0;
}

int ft_crash_write(const char *value, int append, int arg, char *err, size_t errlen)
{
	char *end;
	unsigned long v = strtoul(value, &end, 10);

	end += strspn(end, " \t\n");
	if (end == value || *end || v > 1) {
		snprintf(err, errlen, "not 0 (off) or 1 (a crash stamps the ring): '%.*s'",
			 (int)strcspn(value, "\n"), value);
		return -1;
	}
	if (set((int)v)) {
		snprintf(err, errlen, "no trace buffer to stamp: start a tracer first");
		return -1;
	}
	return 0;
}
