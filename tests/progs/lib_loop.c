// SPDX-License-Identifier: GPL-2.0
/*
 * A traced library's function and one of the program's, called in a
 * loop for SECONDS: a running process with a library to filter by
 * (tests/cases/record/record_pid.sh).  Usage: lib_loop LIB SECONDS
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "robust.h"

KEEP long between(long x)
{
	sink = x;
	return x + 1;
}

int main(int argc, char **argv)
{
	void *h = argc == 3 ? dlopen(argv[1], RTLD_NOW) : NULL;
	long (*eval)(const char *) = h ? (long (*)(const char *))dlsym(h, "calc_eval") : NULL;
	time_t end = argc == 3 ? time(NULL) + atol(argv[2]) : 0;
	struct timespec pause = { 0, 1000000 };
	long sum = 0;

	if (!eval) {
		fprintf(stderr, "usage: lib_loop LIB SECONDS (with calc_eval)\n");
		return 2;
	}
	while (time(NULL) < end) {
		sum += eval("2 * (3 + 4)");
		sum = between(sum);
		nanosleep(&pause, NULL);
	}
	printf("%ld\n", sum > 0);
	return 0;
}
