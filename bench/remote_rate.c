// SPDX-License-Identifier: GPL-2.0
/* bench/remote.sh's program: for SECONDS, CALLS calls of outer() ->
 * inner() each millisecond, at a steady rate (0: as fast as it can),
 * in THREADS threads (default 1): a trace of a known rate. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds;
static long calls;

__attribute__((noinline)) long inner(long i)
{
	return i * 7 + 1;
}

__attribute__((noinline)) long outer(long i)
{
	return inner(i) + 1;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void next_ms(struct timespec *t)
{
	t->tv_nsec += 1000000;
	if (t->tv_nsec >= 1000000000) {
		t->tv_nsec -= 1000000000;
		t->tv_sec++;
	}
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL);
}

static void *work(void *arg)
{
	double end = now() + seconds;
	struct timespec tick;
	long sum = 0;

	clock_gettime(CLOCK_MONOTONIC, &tick);
	while (now() < end) {
		for (long i = 0; i < (calls ? calls : 10000); i++)
			sum += outer(i);
		if (calls)
			next_ms(&tick);
	}
	*(long *)arg = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 3 ? atoi(argv[3]) : 1;
	pthread_t t[64];
	long sums[64];

	if (argc < 3 || threads < 1 || threads > 64) {
		fprintf(stderr, "usage: remote_rate SECONDS CALLS_PER_MS [THREADS]\n");
		return 2;
	}
	seconds = atof(argv[1]);
	calls = atol(argv[2]);
	for (int i = 1; i < threads; i++)
		pthread_create(&t[i], NULL, work, &sums[i]);
	work(&sums[0]);
	for (int i = 1; i < threads; i++)
		pthread_join(t[i], NULL);
	return 0;
}
