// SPDX-License-Identifier: GPL-2.0
/*
 * The part of fntrace attach's injected call that no architecture changes:
 * run the thread until the call returns to address 0 (arch_inject_call in
 * src/arch/<arch>/inject.c sets it up and puts the registers back).
 */
#include "arch.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

/* The caller's time limit ran out while the thread ran our call: stop
 * it again, wherever it is, so that its registers can be put back. */
static int stop_again(pid_t tid)
{
	int status;

	if (ptrace(PTRACE_INTERRUPT, tid, NULL, NULL))
		return -1;
	while (waitpid(tid, &status, __WALL) != tid)
		if (errno != EINTR)
			return -1;
	return WIFSTOPPED(status) ? 0 : -1;
}

/* Until the thread stops; -1 if the wait is given up (the call then
 * abandoned, the thread stopped again where it is). */
static int wait_stop(pid_t tid, int *status)
{
	while (waitpid(tid, status, __WALL) != tid) {
		if (errno != EINTR)
			return -1;
		if (inject_may_abandon(tid)) {
			stop_again(tid);
			return -1;
		}
	}
	return 0;
}

int inject_run_to_zero(pid_t tid, int (*at_zero)(pid_t tid, void *regs), void *regs)
{
	int sig = 0, status, zero;

	for (;;) {
		if (ptrace(PTRACE_CONT, tid, NULL, (void *)(long)sig))
			return -1;
		if (wait_stop(tid, &status))
			return -1;
		if (!WIFSTOPPED(status))
			return -1;
		sig = WSTOPSIG(status);
		zero = at_zero(tid, regs);
		if (zero < 0)
			return -1;
		if (sig == SIGSEGV && zero)
			return 0;
		/* Another signal: let it through (a SIGTRAP too: one of our
		 * breakpoints, which the handler must see); a ptrace event
		 * stop: nothing to pass on.  Go on. */
		if ((status >> 16) != 0)
			sig = 0;
	}
}
