// SPDX-License-Identifier: GPL-2.0
/* tid_reuse [LIMIT]: threads made one after another, each joined before
 * the next, until the kernel has given five of the first ten's tids again
 * (past pid_max it hands them out anew) or LIMIT threads were made
 * (100000).  Those fifteen do 12000 work() calls each, several chunks of
 * trace; the others one.  Prints "threads N reused R". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FIRST 10
#define WANTED 5

static volatile long sink;
static pid_t first_tids[FIRST];
static int made, reused;

__attribute__((noipa)) long leaf(long x)
{
	sink = x;
	return x + 1;
}

__attribute__((noipa)) long work(long i)
{
	return leaf(i) + leaf(i + 1);
}

static int is_first_tid(pid_t tid)
{
	for (int i = 0; i < FIRST; i++)
		if (first_tids[i] == tid)
			return 1;
	return 0;
}

__attribute__((noipa)) void *thread_main(void *arg)
{
	pid_t tid = syscall(SYS_gettid);
	long n = 1;

	if (made < FIRST) {
		first_tids[made] = tid;
		n = 12000;
	} else if (is_first_tid(tid)) {
		reused++;
		n = 12000;
	}
	for (long i = 0; i < n; i++)
		sink += work(i);
	return NULL;
}

int main(int argc, char **argv)
{
	int limit = argc > 1 ? atoi(argv[1]) : 100000;

	for (; made < limit && reused < WANTED; made++) {
		pthread_t t;

		if (pthread_create(&t, NULL, thread_main, NULL) || pthread_join(t, NULL))
			return 1;
	}
	printf("threads %d reused %d\n", made, reused);
	return 0;
}
