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
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

static char fault[512];

const char *inject_fault(void)
{
	return fault[0] ? fault : NULL;
}

/* The module of tid's process mapped at pc, as "PATH+OFFSET". */
static void where(pid_t tid, uintptr_t pc, char *buf, size_t len)
{
	char maps[64], line[4400], path[4096];
	unsigned long lo, hi, off;
	FILE *m;

	snprintf(buf, len, "%#lx", (unsigned long)pc);
	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)tid);
	m = fopen(maps, "re");
	while (m && fgets(line, sizeof(line), m)) {
		path[0] = '\0';
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %4095s", &lo, &hi, &off, path) < 3 ||
		    pc < lo || pc >= hi)
			continue;
		snprintf(buf, len, "%s+%#lx", path[0] ? path : "?", (unsigned long)(pc - lo + off));
		break;
	}
	if (m)
		fclose(m);
}

/*
 * A fault the kernel raised in the thread (si_code > 0; not a signal
 * someone sent) while it ran our call: our call's, noted for the message
 * of the call that failed, while the process is still there to say where.
 */
static void note_fault(pid_t tid, int sig, uintptr_t pc)
{
	siginfo_t si;
	char at[400];

	if ((sig != SIGSEGV && sig != SIGBUS && sig != SIGILL && sig != SIGFPE) ||
	    ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) || si.si_code <= 0)
		return;
	where(tid, pc, at, sizeof(at));
	snprintf(fault, sizeof(fault), "%s at %s (address %p)", strsignal(sig), at, si.si_addr);
}

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

int inject_run_to_zero(pid_t tid, int (*read_pc)(pid_t tid, void *regs, uintptr_t *pc),
		       void *regs)
{
	int sig = 0, status;
	uintptr_t pc;

	fault[0] = '\0';
	for (;;) {
		if (ptrace(PTRACE_CONT, tid, NULL, (void *)(long)sig))
			return -1;
		if (wait_stop(tid, &status))
			return -1;
		if (!WIFSTOPPED(status))
			return -1;
		sig = WSTOPSIG(status);
		if (read_pc(tid, regs, &pc))
			return -1;
		if (sig == SIGSEGV && pc == 0)
			return 0;
		/* Another signal: let it through (a SIGTRAP too: one of our
		 * breakpoints, which the handler must see); a ptrace event
		 * stop: nothing to pass on.  Go on. */
		if ((status >> 16) != 0)
			sig = 0;
		else
			note_fault(tid, sig, pc);
	}
}
