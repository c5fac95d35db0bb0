// SPDX-License-Identifier: GPL-2.0
/*
 * Four threads call a traced function for a second, in bursts of 2000
 * calls every 10 ms (about 6 MB of events a second in all, so that the
 * report stays quick): with a small buffer and a recorder that stops for
 * a while, every one of them loses events.  Each thread prints its tid,
 * then the program a result.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "robust.h"

#define THREADS 4

KEEP long tick(long x)
{
	sink = x;
	return x + 1;
}

KEEP void *flood(void *arg)
{
	struct timespec end, now;
	long n = 0;

	printf("tid %ld\n", (long)syscall(SYS_gettid));
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += 1;
	do {
		struct timespec pause = { 0, 10000000 };

		for (int i = 0; i < 2000; i++)
			n = tick(n);
		nanosleep(&pause, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
		 (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	*(long *)arg = n;
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	long n[THREADS], ok = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, flood, &n[i]);
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		ok &= n[i] > 0;
	}
	printf("result %ld\n", ok);
	return 0;
}
