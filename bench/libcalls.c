// SPDX-License-Identifier: GPL-2.0
/*
 * Library calls for bench/reach.sh: a loop of cheap libc calls, each made
 * through the program's GOT (built with -fno-builtin, so that none is
 * inlined), so that what a traced library call costs shows.
 *
 * Usage: libcalls [ITERATIONS]   (default 1000; 3 calls into libc each)
 * Prints a checksum, the same for every build and every tracer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const words[] = { "fntrace", "ftrace", "uftrace", "42", "-7" };

int main(int argc, char **argv)
{
	long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	unsigned long sum = 0;

	if (iters < 0) {
		fprintf(stderr, "usage: libcalls [ITERATIONS]\n");
		return 2;
	}
	for (long i = 0; i < iters; i++) {
		const char *w = words[i % 5];

		sum = sum * 31 + strlen(w);
		sum += memchr(w, 't', 2) != NULL;
		sum += (unsigned long)atoi(w);
	}
	printf("libcalls checksum %lu\n", sum);
	return 0;
}
