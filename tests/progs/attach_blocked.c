// SPDX-License-Identifier: GPL-2.0
/*
 * attach_blocked [SECONDS [HOLD [OPEN]]]: a worker thread that blocks
 * every signal, as xz's do, calling traced functions every 10 ms for
 * SECONDS (default 3), and on while the file HOLD exists, while main()
 * waits for it.  Once the file OPEN exists, the worker blocks no signal.
 * Prints the sum of the first SECONDS' results.
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

static const char *hold, *open_file;

static int held(void)
{
	return hold && access(hold, F_OK) == 0;
}

static void open_once(void)
{
	sigset_t none;

	if (!open_file || access(open_file, F_OK))
		return;
	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	open_file = NULL;
}

static void *worker(void *arg)
{
	long n = (long)arg, sum = 0;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (long i = 0; i < n || held(); i++) {
		long r = blocked_mid(i);

		if (i < n)
			sum += r;
		open_once();
		usleep(10000);
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	long n = (argc > 1 ? atoi(argv[1]) : 3) * 100;
	pthread_t t;
	void *sum;

	hold = argc > 2 ? argv[2] : NULL;
	open_file = argc > 3 ? argv[3] : NULL;
	pthread_create(&t, NULL, worker, (void *)n);
	pthread_join(t, &sum);
	printf("%ld\n", (long)sum);
	return 0;
}
