// SPDX-License-Identifier: GPL-2.0
/*
 * A process that forks, for the kernel events' test of fork and exec
 * (tests/cases/record/kevents_fork.sh): "kev_fork PROG" makes 30 getppid
 * calls in parent_calls(), forks in spawn(); the child makes 50 in
 * child_calls(), sleeps 10 ms in child_nap() and execs PROG (kev_exec,
 * another program with call sites) from child_exec(); the parent waits
 * for it in wait_child(), measuring the wait by its own clock.  Prints
 * "parent PID", "child PID" and "wait NS".
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "robust.h"

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

KEEP void getppid_calls(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
	sink = n;
}

KEEP void parent_calls(void)
{
	getppid_calls(30);
	sink = 1;
}

KEEP void child_calls(void)
{
	getppid_calls(50);
	sink = 2;
}

KEEP void child_nap(void)
{
	struct timespec t = { 0, 10 * 1000000L };

	while (nanosleep(&t, &t))
		;
	sink = 3;
}

KEEP void child_exec(char **argv)
{
	execv(argv[0], argv);
	perror(argv[0]);
	_exit(127);
}

KEEP int wait_child(pid_t pid)
{
	long long t0 = now_ns();
	int status;

	if (waitpid(pid, &status, 0) != pid)
		abort();
	printf("wait %lld\n", now_ns() - t0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

KEEP int spawn(char **argv)
{
	pid_t pid = fork();

	if (pid < 0)
		abort();
	if (pid == 0) {
		child_calls();
		child_nap();
		child_exec(argv);
	}
	printf("child %d\n", (int)pid);
	fflush(stdout);
	return wait_child(pid);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("parent %d\n", (int)getpid());
	parent_calls();
	return spawn(argv + 1);
}
