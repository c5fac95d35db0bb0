// SPDX-License-Identifier: GPL-2.0
/*
 * A trigger storm (bench/trigger_storm.sh): for SECONDS, thread 0 handles
 * slow requests, each sleeping a millisecond in slow_step(), while
 * WORKERS threads handle fast ones as fast as they can.  Prints the fast
 * requests per second and the slow calls made:
 *
 *   trigger_storm SECONDS WORKERS   ->   "fast_per_s N slow M"
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define KEEP __attribute__((noipa))
#define MAX_WORKERS 16

static volatile long sink;
static volatile int stop;
static long fast_done[MAX_WORKERS + 1], slow_done;

KEEP long parse_request(long x)
{
	sink = x;
	return x * 3;
}

KEEP long slow_step(long x)
{
	struct timespec ms = { 0, 1000 * 1000 };

	nanosleep(&ms, NULL);
	sink = x;
	return x + 7;
}

KEEP long compute(long x, int slow)
{
	long r = slow ? slow_step(x) : x + 1;

	sink = r;
	return r;
}

KEEP long reply(long x)
{
	sink = x;
	return x - 1;
}

KEEP long handle_request(long x, int slow)
{
	long r = reply(compute(parse_request(x), slow));

	sink = r;
	return r;
}

static void *slow_thread(void *arg)
{
	while (!stop) {
		handle_request(slow_done, 1);
		slow_done++;
	}
	return NULL;
}

static void *fast_thread(void *arg)
{
	long *done = arg;

	while (!stop) {
		handle_request(*done, 0);
		++*done;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_WORKERS + 1];
	struct timespec run;
	long workers, fast = 0;
	double seconds;

	if (argc < 3)
		return 2;
	seconds = atof(argv[1]);
	workers = atol(argv[2]);
	if (workers < 1 || workers > MAX_WORKERS)
		return 2;
	pthread_create(&t[0], NULL, slow_thread, NULL);
	for (long i = 1; i <= workers; i++)
		pthread_create(&t[i], NULL, fast_thread, &fast_done[i]);
	run.tv_sec = (time_t)seconds;
	run.tv_nsec = (long)((seconds - (double)run.tv_sec) * 1e9);
	nanosleep(&run, NULL);
	stop = 1;
	for (long i = 0; i <= workers; i++)
		pthread_join(t[i], NULL);
	for (long i = 1; i <= workers; i++)
		fast += fast_done[i];
	printf("fast_per_s %.0f slow %ld\n", fast / seconds, slow_done);
	return 0;
}
