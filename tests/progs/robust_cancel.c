// SPDX-License-Identifier: GPL-2.0
/*
 * A thread waits three traced frames down and is cancelled there: its
 * cleanup handler runs, the frames never return, and the main thread
 * joins it and learns it was cancelled.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "robust.h"

KEEP void cleanup(void *arg)
{
	sink = (long)arg;
}

KEEP void level3(long x)
{
	sink = x;
	for (;;)
		pause();
}

KEEP void level2(long x)
{
	level3(x + 1);
	sink = x;
}

KEEP void level1(long x)
{
	level2(x + 1);
	sink = x;
}

KEEP void *waiter(void *arg)
{
	pthread_cleanup_push(cleanup, arg);
	level1((long)arg);
	pthread_cleanup_pop(0);
	return NULL;
}

int main(void)
{
	pthread_t t;
	void *res;

	pthread_create(&t, NULL, waiter, (void *)7);
	usleep(100000);
	pthread_cancel(t);
	pthread_join(t, &res);
	printf("cancelled %d, cleanup saw %ld\n", res == PTHREAD_CANCELED, sink);
	return 0;
}
