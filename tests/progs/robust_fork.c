// SPDX-License-Identifier: GPL-2.0
/*
 * fork() from inside a traced frame: the child calls traced functions and
 * exits with status 3, the parent waits for it and calls traced functions
 * too.  Prints both pids (the child's first, from the parent) so that the
 * test can find each one's events.
 *
 * robust_fork orphan [MS]: the parent does not wait; the child calls its
 * traced functions MS (default 300) ms after the parent has ended.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "robust.h"

KEEP long leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP long child_work(long x)
{
	long r = leaf(x) + leaf(x + 1);

	sink = r;
	return r;
}

KEEP long parent_work(long x)
{
	long r = leaf(x) * 2;

	sink = r;
	return r;
}

KEEP int split(void)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(child_work(1) == 5 ? 3 : 1);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	printf("child %d status %d\n", (int)pid, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	sink = status;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

KEEP int leave_orphan(int ms)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		usleep(ms * 1000);
		_exit(child_work(1) == 5 ? 0 : 1);
	}
	printf("child %d\n", (int)pid);
	return pid < 0;
}

int main(int argc, char **argv)
{
	int st;

	if (argc > 1)
		return leave_orphan(argc > 2 ? atoi(argv[2]) : 300);
	st = split();

	printf("parent %d work %ld\n", (int)getpid(), parent_work(st));
	return st == 3 ? 0 : 1;
}
