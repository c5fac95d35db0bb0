// SPDX-License-Identifier: GPL-2.0
/*
 * A worker thread that blocks every signal, as xz's do, calling traced
 * functions every 10 ms for N seconds (default 3) while main() waits for
 * it.  Prints the sum of the results.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define KEEP __attribute__((noipa))

static volatile long sink;

KEEP long blocked_leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP long blocked_mid(long x)
{
	long r = blocked_leaf(x) * 2;

	sink = r;
	return r;
}

static void *worker(void *arg)
{
	long n = (long)arg, sum = 0;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (long i = 0; i < n; i++) {
		sum += blocked_mid(i);
		usleep(10000);
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	long n = (argc > 1 ? atoi(argv[1]) : 3) * 100;
	pthread_t t;
	void *sum;

	pthread_create(&t, NULL, worker, (void *)n);
	pthread_join(t, &sum);
	printf("%ld\n", (long)sum);
	return 0;
}
