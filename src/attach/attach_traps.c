// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that block SIGTRAP, in a process fntrace attaches to.
 *
 * A breakpoint in such a thread would kill it, so the runtime could only
 * switch the sites one atomic store writes, and left the others out (xz's
 * workers block every signal: 76 of its 425 sites).  Under fntrace run the
 * runtime keeps SIGTRAP out of every mask the program sets; here fntrace
 * does the same from outside, before the runtime loads: each such thread
 * is stopped for a moment (PTRACE_INTERRUPT; a system call it sleeps in
 * resumes as after any stop), SIGTRAP is taken out of its mask
 * (PTRACE_SETSIGMASK), and it goes on.  Detach puts SIGTRAP back in the
 * masks of those threads still there.  Detach is another fntrace: the
 * list is kept by the runtime (control file traps_unblocked).
 */
#include "attach.h"
#include "../cli/cli.h"
#include "../control/ctl_client.h"

#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <unistd.h>

#define TRAP_BIT ((uint64_t)1 << (SIGTRAP - 1))

/* Does the thread block SIGTRAP?  (SigBlk in its status, in hex.) */
static int blocks_trap(pid_t pid, pid_t tid)
{
	char value[64];

	return cli_proc_status(pid, tid, "SigBlk", value, sizeof(value)) == 0 &&
	       (strtoull(value, NULL, 16) & TRAP_BIT);
}

/* SIGTRAP in or out of a thread's mask; held: the caller holds it
 * stopped already (attach's own thread).  A signal the thread was taking
 * when it stopped (one of our breakpoints, say) goes on with it. */
static int set_trap_blocked(pid_t tid, int blocked, int held)
{
	uint64_t mask;
	int ret = -1, sig = 0;

	if (!held && (sig = attach_ptrace_stop(tid)) < 0)
		return -1;
	if (ptrace(PTRACE_GETSIGMASK, tid, (void *)sizeof(mask), &mask) == 0) {
		mask = blocked ? mask | TRAP_BIT : mask & ~TRAP_BIT;
		ret = ptrace(PTRACE_SETSIGMASK, tid, (void *)sizeof(mask), &mask) ? -1 : 0;
	}
	if (!held)
		ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)sig);
	return ret;
}

int attach_unblock_traps(pid_t pid, pid_t held, char *list, size_t len)
{
	char path[64];
	struct dirent *e;
	size_t used = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return -1;
	list[0] = '\0';
	while ((e = readdir(d))) {
		pid_t tid = atoi(e->d_name);
		int n;

		if (tid <= 0 || !blocks_trap(pid, tid) || set_trap_blocked(tid, 0, tid == held))
			continue;
		n = snprintf(list + used, len - used, "%s%d", used ? " " : "", (int)tid);
		if (n < 0 || (size_t)n >= len - used) {
			set_trap_blocked(tid, 1, tid == held);
			break;
		}
		used += n;
	}
	closedir(d);
	return 0;
}

/* The list the runtime kept, read before detach closes its endpoint:
 * 0, or ctl_request()'s status, said in one line. */
int detach_traps_list(pid_t pid, char *list, size_t len)
{
	int status;
	struct ctl_conn *c = ctl_request(pid, "read", "traps_unblocked", NULL, NULL, &status);

	list[0] = '\0';
	if (!c)
		return status;
	if (ctl_read_line(c, list, len) < 0)
		list[0] = '\0';
	ctl_close(c);
	return 0;
}

void detach_reblock_traps(pid_t pid, const char *list)
{
	char path[64];
	const char *p = list;
	char *end;

	for (long tid; (tid = strtol(p, &end, 10)) > 0; p = end) {
		snprintf(path, sizeof(path), "/proc/%d/task/%ld", (int)pid, tid);
		if (access(path, F_OK) == 0 && set_trap_blocked(tid, 1, 0))
			cli_error("process %d: thread %ld: cannot block SIGTRAP again", (int)pid,
				  tid);
	}
}
