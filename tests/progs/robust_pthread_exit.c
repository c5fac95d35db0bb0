// SPDX-License-Identifier: GPL-2.0
/*
 * A thread calls pthread_exit() from inside three traced frames (below
 * its traced start function): the frames never return, the program goes
 * on, joins it and calls traced functions again.
 */
#include <pthread.h>
#include <stdio.h>

#include "robust.h"

KEEP void level3(long x)
{
	sink = x;
	pthread_exit((void *)(x + 1));
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

KEEP void *exiter(void *arg)
{
	level1((long)arg);
	sink = 0;
	return NULL;
}

KEEP long after(long x)
{
	sink = x;
	return x * 2;
}

int main(void)
{
	pthread_t t;
	void *ret;

	if (pthread_create(&t, NULL, exiter, (void *)4L) || pthread_join(t, &ret))
		return 1;
	printf("thread returned %ld, after %ld\n", (long)ret, after((long)ret));
	return 0;
}
