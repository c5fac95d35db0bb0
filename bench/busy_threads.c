// SPDX-License-Identifier: GPL-2.0
/*
 * A program whose threads never leave the CPUs, for bench/busy_ctl.sh:
 *
 *   busy_threads N
 *     N threads (64 KB stacks) each call work() in a loop, and other()
 *     every 1024th time; "ready" is printed once all of them run, and the
 *     program runs until it is killed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) long work(long x)
{
	sink = x;
	return x + 1;
}

__attribute__((noinline)) long other(long x)
{
	sink = x;
	return x * 2;
}

static void *spin(void *unused)
{
	for (long i = 0;;) {
		i = work(i);
		if ((i & 1023) == 0)
			other(i);
	}
	return unused;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;
	pthread_attr_t attr;
	pthread_t t;

	if (n <= 0) {
		fprintf(stderr, "usage: busy_threads N\n");
		return 2;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t, &attr, spin, NULL)) {
			perror("pthread_create");
			return 1;
		}
	printf("ready\n");
	fflush(stdout);
	pause();
	return 0;
}
