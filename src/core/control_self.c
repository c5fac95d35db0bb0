// SPDX-License-Identifier: GPL-2.0
/*
 * What the control thread sets for itself: the signals it takes, and the
 * scheduler's weight it serves with.
 */
#include "control.h"
#include "seccomp.h"

#include <signal.h>
#include <sys/resource.h>

/*
 * This thread blocks every signal but three:
 *
 * - the one that syncs threads where membarrier is missing: this thread
 *   must answer it too;
 *
 * - SIGPROF and SIGVTALRM, the process's CPU-time timers (setitimer; a
 *   -pg program's gmon sets ITIMER_PROF, 100 times a second).  The time
 *   they count is every thread's, ours too, and the kernel sends the
 *   signal to the thread whose time ran it out, or, if that one blocks
 *   it, to one that does not:
 *
 *     blocked here:   main thread  asleep in sleep(2)   no CPU
 *                     fntrace-ctl  serves a request     CPU, the timer expires
 *                     -> SIGPROF to the main thread: its handler runs, and
 *                        the sleep ends early (EINTR), after 1.4 s of 2
 *     taken here:     -> SIGPROF to fntrace-ctl: the handler runs here
 *                        (gmon counts no program address), the sleep goes on
 *
 *   A program alone, asleep, spends no time and gets none of them: with
 *   the runtime, it must not either.  The calls here that wait go on
 *   after EINTR.
 */
void ft_control_take_signals(int sync_signal)
{
	sigset_t own;

	sigemptyset(&own);
	if (sync_signal)
		sigaddset(&own, sync_signal);
	sigaddset(&own, SIGPROF);
	sigaddset(&own, SIGVTALRM);
	pthread_sigmask(SIG_UNBLOCK, &own, NULL);
}

/*
 * A request is an operator's, waiting at a terminal: it should take
 * milliseconds however busy the program keeps the CPUs.  But the
 * scheduler shares them out by thread, and this thread is one among the
 * program's.  With 1000 threads spinning on 2 cores, each of its
 * system calls could wait seconds for a turn: a tracer switch took 20 to
 * 70 s, most of it waiting.  At nice -20 it takes under a second.
 *
 * So the thread serves at nice -20 where it may (CAP_SYS_NICE: a service
 * run by root), and else stays as it was made.  It costs nothing while it
 * sleeps between requests, and its work is bounded by what is asked.
 * Taken when the thread starts (a forked child's control thread is a new
 * one), unless a seccomp filter covers it: setpriority() is not among the
 * calls every program makes, which a filter may be assumed to allow.
 */
void ft_control_take_priority(void)
{
	if (!ft_seccomp_covers_this_thread())
		setpriority(PRIO_PROCESS, 0, -20);
}
