// SPDX-License-Identifier: GPL-2.0
/*
 * Under qemu-user, /proc/self/task lists the emulator's own threads too
 * (an RCU thread made before the program starts), each blocking nearly
 * every signal and never running the program's code.  Taken for the
 * program's, such a thread would make a runtime preloaded at start think
 * it had been attached to a running process (ft_count_threads), that a
 * thread blocks SIGTRAP (ftrace_traps_blocked), and would never answer a
 * sync signal.
 *
 * They are told apart at start-up: when the runtime comes with the
 * program (it is in LD_PRELOAD, or linked in), no thread of the program exists yet but
 * the one running the constructors, and a task that blocks SIGTRAP then
 * is the emulator's.  Attached to a running process (fntrace attach),
 * every task is taken for the program's, as before.  In the child of a
 * fork (where qemu makes its thread anew) only the thread that forked is
 * the program's.
 */
#include "messages.h"
#include "sanitized.h"
#include "tasks.h"
#include "ftrace.h"
#include "linkage.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_FOREIGN 8

static pid_t foreign[MAX_FOREIGN];
static unsigned nr_foreign;

/* The signals a task blocks (SigBlk); 0 if it cannot be read. */
static unsigned long long blocked_mask(pid_t tid)
{
	char path[64], line[128];
	unsigned long long mask, blocked = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SigBlk: %llx", &mask) == 1)
			blocked = mask;
	if (f)
		fclose(f);
	return blocked;
}

int ft_task_blocks_trap(pid_t tid)
{
	return (blocked_mask(tid) >> (SIGTRAP - 1)) & 1;
}

/*
 * ThreadSanitizer starts a thread of its own (once the program starts
 * one), every signal blocked by the system call itself, which runs none
 * of the program's code: taken for the program's, it blocked SIGTRAP,
 * and every site changed live kept its return hijacked (the race reports'
 * stacks then named return_to_handler for callers), or was left alone.
 * Every signal it can: all but SIGKILL and SIGSTOP, glibc's two, and
 * (clang's) SIGSYS, which a seccomp sandbox's handler needs.  SIGTRAP may
 * be let through too, as fntrace attach lets it through to every thread
 * that blocks it (src/attach/attach_traps.c): counted in, this thread
 * never answered a sync's signal, and nothing could be switched where
 * membarrier is missing.
 */
static int sanitizers_own(pid_t tid)
{
	const unsigned long long unblockable = 1ULL << (SIGKILL - 1) | 1ULL << (SIGSTOP - 1) |
					       1ULL << 31 | 1ULL << 32 | 1ULL << (SIGSYS - 1) |
					       1ULL << (SIGTRAP - 1);

	return ft_sanitized_tsan && (blocked_mask(tid) | unblockable) == ~0ULL;
}

/* Note every task but this one, or only those that block SIGTRAP. */
static void note_others(int only_blocking)
{
	pid_t self = syscall(SYS_gettid);
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	nr_foreign = 0;
	while (d && (e = readdir(d)) && nr_foreign < MAX_FOREIGN) {
		pid_t tid = atoi(e->d_name);

		if (tid > 0 && tid != self && (!only_blocking || ft_task_blocks_trap(tid)))
			foreign[nr_foreign++] = tid;
	}
	if (d)
		closedir(d);
	if (nr_foreign)
		ft_debug("%u tasks of the emulator left out of every thread sync", nr_foreign);
}

void ft_tasks_init(void)
{
	if (ft_came_with_program())
		note_others(1);
}

void ft_tasks_after_fork(void)
{
	note_others(0);
}

int ft_task_foreign(pid_t tid)
{
	for (unsigned i = 0; i < nr_foreign; i++)
		if (foreign[i] == tid)
			return 1;
	return sanitizers_own(tid);
}
