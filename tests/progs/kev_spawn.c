// SPDX-License-Identifier: GPL-2.0
/*
 * Threads made all the time, for record -p -e (tests/cases/record/
 * kevents_pid.sh): "kev_spawn CHAINS SECONDS MS" runs CHAINS chains of
 * threads for SECONDS; each thread makes 3 getppid calls in work(),
 * sleeps MS milliseconds, makes the next thread of its chain and ends.
 * A recorder that opens its events on the threads it listed misses a
 * thread made by one of them before its turn came, and, the events
 * inherited from the maker, every thread of that chain after it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "robust.h"

static long nap_ns;

KEEP void work(void)
{
	for (int i = 0; i < 3; i++)
		syscall(SYS_getppid);
	sink = 1;
}

static void *link_of_chain(void *arg)
{
	struct timespec t = { 0, nap_ns };
	pthread_t next;

	work();
	while (nanosleep(&t, &t))
		;
	if (pthread_create(&next, NULL, link_of_chain, NULL) || pthread_detach(next))
		abort();
	return arg;
}

int main(int argc, char **argv)
{
	int chains = argc > 1 ? atoi(argv[1]) : 4;
	int seconds = argc > 2 ? atoi(argv[2]) : 10;

	nap_ns = (argc > 3 ? atol(argv[3]) : 5) * 1000000L;
	for (int i = 0; i < chains; i++)
		link_of_chain(NULL);
	sleep(seconds);
	return 0;
}
