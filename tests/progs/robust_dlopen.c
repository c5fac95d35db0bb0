// SPDX-License-Identifier: GPL-2.0
/*
 * dlopen, call and dlclose a traced library 50 times in a loop, with a
 * traced function of the program called between the loads.  Prints the
 * sum of the results.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "robust.h"

#define LOADS 50

KEEP long between(long x)
{
	sink = x;
	return x + 1;
}

KEEP long load_and_call(const char *path, long i)
{
	char expr[64];
	long (*eval)(const char *);
	void *h = dlopen(path, RTLD_NOW);
	long v;

	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return -1000000;
	}
	snprintf(expr, sizeof(expr), "%ld * (3 + 4)", i);
	eval = (long (*)(const char *))dlsym(h, "calc_eval");
	v = eval ? eval(expr) : -1000000;
	dlclose(h);
	sink = v;
	return v;
}

int main(int argc, char **argv)
{
	long sum = 0;

	if (argc < 2)
		return 2;
	for (long i = 1; i <= LOADS; i++) {
		sum += load_and_call(argv[1], i);
		sum += between(i);
	}
	printf("%ld\n", sum);
	return 0;
}
