// SPDX-License-Identifier: GPL-2.0
/*
 * A thread waits three traced frames down, each holding an object with a
 * destructor, and is cancelled there: glibc's forced unwinding must run
 * all three destructors on its way out, through the frames whose return
 * addresses the graph tracer took.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "robust.h"

static int destroyed;

struct Guard {
	long id;
	KEEP explicit Guard(long i) : id(i) { sink = i; }
	KEEP ~Guard() { __atomic_add_fetch(&destroyed, 1, __ATOMIC_RELAXED); sink = id; }
};

KEEP void level3(long x)
{
	Guard g(x);

	for (;;)
		pause();
}

KEEP void level2(long x)
{
	Guard g(x);

	level3(x + 1);
	sink = x;
}

KEEP void level1(long x)
{
	Guard g(x);

	level2(x + 1);
	sink = x;
}

KEEP void *waiter(void *arg)
{
	level1((long)arg);
	return NULL;
}

int main()
{
	pthread_t t;
	void *res;

	pthread_create(&t, NULL, waiter, (void *)7);
	usleep(100000);
	pthread_cancel(t);
	pthread_join(t, &res);
	printf("cancelled %d, destructors run %d\n", res == PTHREAD_CANCELED, destroyed);
	return 0;
}
