// SPDX-License-Identifier: GPL-2.0
/*
 * Threads made with glibc's clone() and no pthread: each shares its
 * creator's memory, files, signal handlers and thread pointer (no
 * CLONE_SETTLS), calls count() a known number of times while main()
 * goes on calling it too, and ends by returning.  Then a clone() child
 * without CLONE_VM (a process, as fork makes) and one with CLONE_VFORK.
 * Prints the totals: the same traced or not.  argv[1]: rounds of
 * threads.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "robust.h"

#define THREADS	4
#define CALLS	20000
#define STACK	(256 * 1024)

static _Atomic long total;
static pid_t tids[THREADS];

KEEP void count(long n)
{
	atomic_fetch_add(&total, n);
	sink = n;
}

KEEP int counter(void *arg)
{
	for (long i = 0; i < CALLS; i++)
		count(1);
	sink = (long)arg;
	return 0;
}

/* CLONE_CHILD_CLEARTID: the kernel zeroes the word and wakes it when
 * the thread has ended. */
static void wait_thread(pid_t *tid)
{
	pid_t seen;

	while ((seen = atomic_load((_Atomic pid_t *)tid)) != 0)
		syscall(SYS_futex, tid, FUTEX_WAIT, seen, NULL, NULL, 0);
}

KEEP int threads(void)
{
	int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
		    CLONE_SYSVSEM | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
	char *stacks = malloc((size_t)THREADS * STACK);

	for (long i = 0; i < THREADS; i++)
		if (clone(counter, stacks + (i + 1) * STACK, flags, (void *)i, &tids[i], NULL,
			  &tids[i]) < 0)
			return 1;
	for (long i = 0; i < CALLS; i++)
		count(1);
	for (int i = 0; i < THREADS; i++)
		wait_thread(&tids[i]);
	free(stacks);
	return 0;
}

KEEP int child(void *arg)
{
	count(5);
	return (int)atomic_load(&total) % 200 + (int)(long)arg;
}

/* A child of clone(): its status says what it saw. */
KEEP int process(int flags, long arg)
{
	char *stack = malloc(STACK);
	int status = -1;
	pid_t pid = clone(child, stack + STACK, flags | SIGCHLD, (void *)arg);

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	free(stack);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1, fail = 0;

	for (int i = 0; i < rounds; i++)
		fail |= threads();

	printf("threads %ld\n", atomic_load(&total));
	printf("process %d\n", process(0, 1));
	printf("vfork %d\n", process(CLONE_VM | CLONE_VFORK, 2));
	printf("total %ld\n", atomic_load(&total));
	return fail;
}
