// SPDX-License-Identifier: GPL-2.0
/*
 * Two threads that hand a byte back and forth through two pipes N times
 * (argv[1], default 100 000): each hand-over a wake-up and a context
 * switch or two, for bench/kevents.sh's cost of recording them.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static int ping[2], pong[2];
static long rounds = 100000;

__attribute__((noinline)) static void bounce(int in, int out)
{
	char c;

	for (long i = 0; i < rounds; i++)
		if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
			abort();
}

static void *other(void *arg)
{
	bounce(ping[0], pong[1]);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char c = 'x';

	if (argc > 1)
		rounds = atol(argv[1]);
	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, other, NULL))
		return 1;
	for (long i = 0; i < rounds; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 1;
	pthread_join(t, NULL);
	return 0;
}
