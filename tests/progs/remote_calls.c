// SPDX-License-Identifier: GPL-2.0
/* ROUNDS rounds (default 10) of CALLS calls (default 1000) of outer() ->
 * inner() twice, in the main thread and in a second thread at once,
 * PAUSE_MS milliseconds (default 0) apart; then one line and exit
 * status 3.  The same arguments give the same calls, whatever records
 * them: a recording sent to a listener is compared with a local one. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int rounds = 10, calls = 1000, pause_ms;

__attribute__((noinline)) long inner(long i)
{
	return i * 7 + 1;
}

__attribute__((noinline)) long outer(long i)
{
	return inner(i) + inner(i + 1);
}

__attribute__((noinline)) long round_of(int r)
{
	long sum = 0;

	for (int i = 0; i < calls; i++)
		sum += outer(r + i);
	return sum;
}

static void *work(void *arg)
{
	long *sum = arg;
	struct timespec pause = { pause_ms / 1000, (pause_ms % 1000) * 1000000L };

	for (int r = 0; r < rounds; r++) {
		*sum += round_of(r);
		if (pause_ms)
			nanosleep(&pause, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long a = 0, b = 0;
	pthread_t t;

	if (argc > 1)
		rounds = atoi(argv[1]);
	if (argc > 2)
		calls = atoi(argv[2]);
	if (argc > 3)
		pause_ms = atoi(argv[3]);
	if (pthread_create(&t, NULL, work, &b))
		return 1;
	work(&a);
	pthread_join(t, NULL);
	printf("sums %ld %ld\n", a, b);
	return 3;
}
