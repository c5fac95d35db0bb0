// SPDX-License-Identifier: GPL-2.0
/*
 * Processes made with the clone system calls through syscall(), glibc's
 * fork() and clone() wrappers bypassed: clone with SIGCHLD and no stack,
 * clone3 with exit_signal SIGCHLD, and fork where the arch has it.  Each
 * child calls count() 500 times while its parent calls it 1000 times;
 * the child's total comes back as its exit status.  With argument "vm":
 * a clone with CLONE_VM (the kernel refuses it: no CLONE_SIGHAND), which
 * the runtime cannot follow.  Prints the same traced or not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "robust.h"

static long total;

KEEP void count(long n)
{
	total += n;
	sink = n;
}

KEEP long work(int calls)
{
	for (int i = 0; i < calls; i++)
		count(1);
	sink = calls;
	return total;
}

static long raw_clone3(void)
{
	struct clone_args args;

	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	return syscall(SYS_clone3, &args, sizeof(args));
}

static long raw_process(const char *how)
{
	if (!strcmp(how, "clone"))
		return syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (!strcmp(how, "clone3"))
		return raw_clone3();
#ifdef SYS_fork
	return syscall(SYS_fork);
#else
	return syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#endif
}

/* The child's total, 500 more than it had, is its status (mod 256). */
KEEP int process(const char *how)
{
	long before = total, pid = raw_process(how);
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit((int)((work(500) - before) % 256));
	work(1000);
	if (waitpid((pid_t)pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	const char *const hows[] = { "clone", "clone3", "fork" };

	if (argc > 1 && !strcmp(argv[1], "vm")) {
		long ret = syscall(SYS_clone, CLONE_VM | CLONE_THREAD, 0, 0, 0, 0);

		printf("vm clone %ld %s\n", ret, ret < 0 ? strerror(errno) : "");
		printf("work %ld\n", work(10));
		return 0;
	}
	for (int i = 0; i < 3; i++)
		printf("%s child %d\n", hows[i], process(hows[i]));
	printf("total %ld\n", total);
	return 0;
}
