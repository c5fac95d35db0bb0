// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: a thread made with clone(CLONE_VM|...|CLONE_SETTLS) and a TLS
 * block of the program's.  "copy": the block is a copy of the creating
 * thread's (its static TLS below the thread pointer, the TCB above, the
 * TCB's self pointers set to the new one), as a threads library without
 * pthread would make it.  "zero": a block of zeros but for those
 * pointers, which holds none of the runtime's variables.  The child calls
 * count() a known number of times while its creator (a pthread, whose
 * stack lies under its TLS) calls it too; prints the total.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "robust.h"

#define CALLS	20000
#define BELOW	16384		/* bytes of static TLS (and stack) copied */
#define ABOVE	64		/* bytes of the TCB copied */
#define STACK	(256 * 1024)

static _Atomic long total;
static int zero;

KEEP void count(long n)
{
	atomic_fetch_add(&total, n);
	sink = n;
}

KEEP int child(void *arg)
{
	for (long i = 0; i < CALLS; i++)
		count(1);
	sink = (long)arg;
	return 0;
}

static char *new_block(void)
{
	char *block = calloc(1, BELOW + ABOVE), *tp = block + BELOW;

	if (!zero)
		memcpy(block, (char *)__builtin_thread_pointer() - BELOW, BELOW + ABOVE);
	memcpy(tp, &tp, sizeof(tp));		/* tcbhead_t.tcb */
	memcpy(tp + 16, &tp, sizeof(tp));	/* tcbhead_t.self */
	return tp;
}

KEEP void *creator(void *arg)
{
	int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
		    CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
	char *stack = malloc(STACK);
	static pid_t tid;
	pid_t seen;

	if (clone(child, stack + STACK, flags, arg, &tid, new_block(), &tid) < 0)
		return (void *)1;
	for (long i = 0; i < CALLS; i++)
		count(1);
	while ((seen = atomic_load((_Atomic pid_t *)&tid)) != 0)
		syscall(SYS_futex, &tid, FUTEX_WAIT, seen, NULL, NULL, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t thread;
	void *failed = (void *)1;

	zero = argc > 1 && !strcmp(argv[1], "zero");
	if (pthread_create(&thread, NULL, creator, NULL) == 0)
		pthread_join(thread, &failed);
	printf("total %ld\n", atomic_load(&total));
	return failed != NULL;
}
