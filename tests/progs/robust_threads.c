// SPDX-License-Identifier: GPL-2.0
/*
 * 50 threads, started and joined in five waves of ten while traced, each
 * calling the same small call tree: every thread's graph must nest and be
 * the same.  Prints the sum of the results.
 */
#include <pthread.h>
#include <stdio.h>

#include "robust.h"

#define WAVES	5
#define PER_WAVE 10

static long results[WAVES * PER_WAVE];

KEEP long leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP long branch(long x)
{
	long r = leaf(x) + leaf(x + 1);

	sink = r;
	return r;
}

KEEP long work(long x)
{
	long r = branch(x) * 2 + leaf(x);

	sink = r;
	return r;
}

KEEP void *worker(void *arg)
{
	long i = (long)arg;

	results[i] = work(i);
	sink = i;
	return NULL;
}

int main(void)
{
	pthread_t t[PER_WAVE];
	long sum = 0;

	for (int w = 0; w < WAVES; w++) {
		for (int i = 0; i < PER_WAVE; i++)
			if (pthread_create(&t[i], NULL, worker, (void *)(long)(w * PER_WAVE + i)))
				return 1;
		for (int i = 0; i < PER_WAVE; i++)
			pthread_join(t[i], NULL);
	}
	for (int i = 0; i < WAVES * PER_WAVE; i++)
		sum += results[i];
	printf("%ld\n", sum);
	return 0;
}
