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
 * masks of those threads still there that still block as they did.
 * Detach is another fntrace: the list, each thread's id and the mask
 * attach left it ("TID:MASK", in hex), is kept by the runtime (control
 * file traps_unblocked).
 *
 * A thread may set its mask between attach and detach: with the
 * runtime's wrappers, which keep SIGTRAP out of every mask, or before
 * they are in place, past them (xz's main thread blocks every signal for
 * the moment it creates a worker: attach may come in that moment).  Its
 * mask, not the one attach saw, says whether it still blocks SIGTRAP: it
 * does if the mask is the one attach left, or if it blocks SIGTRAP's
 * neighbour (SIGILL), as the sets that block one block the other
 * (sigmask.c reads a thread's mask the same way).
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
#define NEIGHBOUR_BIT ((uint64_t)1 << (SIGTRAP - 2))

/* Does the thread block SIGTRAP?  (SigBlk in its status, in hex.) */
static int blocks_trap(pid_t pid, pid_t tid)
{
	char value[64];

	return cli_proc_status(pid, tid, "SigBlk", value, sizeof(value)) == 0 &&
	       (strtoull(value, NULL, 16) & TRAP_BIT);
}

/* The mask attach leaves: SIGTRAP let through. */
static uint64_t unblocked(uint64_t mask, uint64_t left)
{
	return mask & ~TRAP_BIT;
}

/* The mask detach leaves: SIGTRAP back in where the thread still blocks
 * as before, its mask the one attach left it (left) or one that blocks
 * SIGTRAP's neighbour. */
static uint64_t reblocked(uint64_t mask, uint64_t left)
{
	return mask == left || (mask & NEIGHBOUR_BIT) ? mask | TRAP_BIT : mask;
}

typedef uint64_t (*mask_edit)(uint64_t mask, uint64_t left);

/* The thread's mask made edit(mask, left), into *now; held: the caller
 * holds it stopped already (attach's own thread).  A signal the thread
 * was taking when it stopped (one of our breakpoints, say) goes on with
 * it. */
static int edit_mask(pid_t tid, int held, mask_edit edit, uint64_t left, uint64_t *now)
{
	uint64_t mask;
	int ret = -1, sig = 0;

	if (!held && (sig = attach_ptrace_stop(tid)) < 0)
		return -1;
	if (ptrace(PTRACE_GETSIGMASK, tid, (void *)sizeof(mask), &mask) == 0) {
		*now = edit(mask, left);
		ret = *now == mask ||
		      ptrace(PTRACE_SETSIGMASK, tid, (void *)sizeof(*now), now) == 0 ? 0 : -1;
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
	uint64_t left;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return -1;
	list[0] = '\0';
	while ((e = readdir(d))) {
		pid_t tid = atoi(e->d_name);
		int n;

		if (tid <= 0 || !blocks_trap(pid, tid) ||
		    edit_mask(tid, tid == held, unblocked, 0, &left))
			continue;
		n = snprintf(list + used, len - used, "%s%d:%llx", used ? " " : "", (int)tid,
			     (unsigned long long)left);
		if (n < 0 || (size_t)n >= len - used) {
			list[used] = '\0';
			edit_mask(tid, tid == held, reblocked, left, &left);
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

	for (long tid; (tid = strtol(p, &end, 10)) > 0 && *end == ':'; ) {
		uint64_t left = strtoull(end + 1, &end, 16), now;

		p = end;
		snprintf(path, sizeof(path), "/proc/%d/task/%ld", (int)pid, tid);
		if (access(path, F_OK) == 0 && edit_mask(tid, 0, reblocked, left, &now))
			cli_error("process %d: thread %ld: cannot block SIGTRAP again", (int)pid,
				  tid);
	}
}
