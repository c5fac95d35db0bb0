// SPDX-License-Identifier: GPL-2.0
/*
 * A signal storm: SIGALRM at 1 kHz for one second (setitimer), its
 * handler calling a traced function, while the main thread and two other
 * threads call traced functions in a loop (with some work inside the
 * frames, so that signals land both in traced frames and in the tracer).
 * Prints whether every step() gave the right result, and whether enough
 * signals came: nothing that depends on timing.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "robust.h"

#define THREADS 2

static volatile long ticks;
static volatile int stop;

KEEP long tick(long x)
{
	sink = x;
	return x + 1;
}

KEEP void on_alarm(int sig)
{
	ticks = tick(ticks + sig - SIGALRM);
}

#define WORK 10000		/* stores per frame: some microseconds */

KEEP long leaf(long x)
{
	for (int i = 0; i < WORK; i++)
		sink = i;
	return x * 3 + 1;
}

KEEP long step(long x)
{
	long r = leaf(x) - leaf(x - 1) + x;

	for (int i = 0; i < WORK; i++)
		sink = i;
	return r;
}

/* step(x) is x + 3; rounds of 100 calls until the storm is over (the
 * main thread says when: after a second). */
KEEP long loop(int main_thread)
{
	struct timespec start, now;
	long rounds = 0, bad = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		for (long i = 0; i < 100; i++)
			bad += step(i) != i + 3;
		rounds++;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (main_thread && (now.tv_sec - start.tv_sec) * 1000000000L +
		    now.tv_nsec - start.tv_nsec >= 1000000000L)
			stop = 1;
	} while (!stop);
	return bad ? -1 : rounds;
}

KEEP void *thread_loop(void *arg)
{
	*(long *)arg = loop(0);
	return NULL;
}

int main(void)
{
	struct itimerval it = { .it_interval = { 0, 1000 }, .it_value = { 0, 1000 } };
	struct sigaction sa;
	pthread_t t[THREADS];
	long got[THREADS], bad = 0, r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, thread_loop, &got[i]);
	setitimer(ITIMER_REAL, &it, NULL);
	r = loop(1);
	bad += r < 1;
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		bad += got[i] < 1;
	}
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	/* 1 kHz asked, but ITIMER_REAL re-arms only when its signal is
	 * delivered: about 500 a second come on an idle machine, half that
	 * on a busy one.  Enough to say that the storm happened. */
	printf("ticks %s, results %s\n", ticks >= 50 ? "ok" : "short", bad ? "wrong" : "right");
	return 0;
}
