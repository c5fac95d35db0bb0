// SPDX-License-Identifier: GPL-2.0
/*
 * A server with a rare slow request (tests/cases/record/flight_longer.sh,
 * tests/cases/control/ctl_snapshot_triggers.sh, bench/trigger_storm.sh):
 * THREADS threads each handle REQUESTS requests,
 *
 *   handle_request -> parse_request, compute -> [slow_step], reply
 *
 * pausing PAUSE_US between two.  Thread 0's request i is slow when
 * i % SLOW_EVERY == SLOW_EVERY - 1: its slow_step() sleeps SLOW_US, or,
 * given -N, calls parse_request() N times (a subtree bigger than a small
 * ring).  With
 * GO, the threads wait for that file first (for triggers set once the
 * program runs).  At the end it prints "requests N slow S", and with
 * HOLD waits until that file is gone (for its ring to be read).
 *
 *   slow_request THREADS REQUESTS SLOW_EVERY SLOW_US PAUSE_US [GO [HOLD]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "robust.h"

#define MAX_THREADS 64

static long requests, slow_every, slow_us, pause_us;
static _Atomic long handled, slow;

static void nap(long us)
{
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };

	while (nanosleep(&ts, &ts))
		;
}

KEEP long parse_request(long x)
{
	sink = x;
	return x * 3;
}

KEEP long slow_step(long x)
{
	if (slow_us >= 0)
		nap(slow_us);
	for (long i = slow_us; i < 0; i++)
		x = parse_request(x);
	sink = x;
	return x + 7;
}

KEEP long compute(long x, int is_slow)
{
	long r = x + 1;

	if (is_slow)
		r = slow_step(r);
	sink = r;
	return r;
}

KEEP long reply(long x)
{
	sink = x;
	return x - 1;
}

KEEP long handle_request(long x, int is_slow)
{
	long r = reply(compute(parse_request(x), is_slow));

	sink = r;
	return r;
}

static void *worker(void *arg)
{
	long self = (long)arg;

	for (long i = 0; i < requests; i++) {
		int is_slow = self == 0 && i % slow_every == slow_every - 1;

		handle_request(i, is_slow);
		handled++;
		slow += is_slow;
		if (pause_us)
			nap(pause_us);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_THREADS];
	long threads;

	if (argc < 6)
		return 2;
	threads = atol(argv[1]);
	requests = atol(argv[2]);
	slow_every = atol(argv[3]);
	slow_us = atol(argv[4]);
	pause_us = atol(argv[5]);
	if (threads < 1 || threads > MAX_THREADS || slow_every < 1)
		return 2;
	while (argc > 6 && access(argv[6], F_OK))
		nap(10000);
	for (long i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 1;
	for (long i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("requests %ld slow %ld\n", (long)handled, (long)slow);
	fflush(stdout);
	while (argc > 7 && !access(argv[7], F_OK))
		nap(10000);
	return 0;
}
