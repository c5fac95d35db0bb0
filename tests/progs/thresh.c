// SPDX-License-Identifier: GPL-2.0
/*
 * Calls of known lengths, for tracing_thresh: nap() sleeps 2 ms, quick()
 * returns at once, outer() makes three quick calls around a nap.
 *
 *   thresh N [HOLD]   N rounds of outer() and a hundred quick() calls,
 *                     then "N rounds"; with HOLD, on while the file HOLD
 *                     exists too (for a test that switches tracing live);
 *                     HOLD "exit": main leaves by exit(), never returning
 *
 * With a threshold of 1 ms, main -> outer -> nap are the calls kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "robust.h"

KEEP void quick(void)
{
	sink++;
}

KEEP void nap(void)
{
	struct timespec t = { 0, 2 * 1000 * 1000 };

	while (nanosleep(&t, &t))
		;
}

KEEP void outer(void)
{
	quick();
	nap();
	quick();
	quick();
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5, i;
	const char *hold = argc > 2 && strcmp(argv[2], "exit") ? argv[2] : NULL;

	for (i = 0; i < n || (hold && access(hold, F_OK) == 0); i++) {
		outer();
		for (int k = 0; k < 100; k++)
			quick();
	}
	printf("%d rounds\n", i);
	if (argc > 2 && !hold)
		exit(0);
	return 0;
}
