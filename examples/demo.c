// SPDX-License-Identifier: GPL-2.0
/*
 * The fntrace demo: N worker threads each evaluate a few expressions with
 * libcalc.so and report their sums.  Built with -pg, linked without it:
 * at full speed when nobody traces it.
 *
 *   build/fntrace live -- build/examples/demo 3
 */
#include "calc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const exprs[] = {
	"1 + 2 * 3",
	"(4 + 5) * (6 - 1)",
	"100 / (2 + 3) - 7",
};

struct worker {
	pthread_t thread;
	int index;
	long sum;
};

static long evaluate(int index, const char *expr)
{
	return calc_eval(expr) * (index + 1);
}

static void *work(void *arg)
{
	struct worker *w = arg;

	for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++)
		w->sum += evaluate(w->index, exprs[i]);
	return NULL;
}

static int start_workers(struct worker *w, int n)
{
	for (int i = 0; i < n; i++) {
		w[i].index = i;
		if (pthread_create(&w[i].thread, NULL, work, &w[i]))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	struct worker *w = calloc(n > 0 ? n : 1, sizeof(*w));

	if (n < 1 || n > 64 || !w || start_workers(w, n)) {
		fprintf(stderr, "usage: demo [THREADS (1-64)]\n");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		printf("worker %d: %ld\n", i, w[i].sum);
	}
	free(w);
	return 0;
}
