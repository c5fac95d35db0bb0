// SPDX-License-Identifier: GPL-2.0
/* rotate N [HOLD]: first(), then work(i) -> leaf() twice, for i up to N,
 * or for as long as the file HOLD exists, then last(); prints "done".
 * Far more trace than a test's --max-size keeps: the newest calls
 * (last) are in what it keeps, the oldest (first) are not, and the
 * calls in between nest three deep (main, work, leaf). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noipa)) void first(void)
{
	sink = -1;
}

__attribute__((noipa)) long leaf(long x)
{
	sink = x;
	return x + 1;
}

__attribute__((noipa)) long work(long i)
{
	return leaf(i) + leaf(i + 1);
}

__attribute__((noipa)) void last(void)
{
	sink = -2;
}

/* HOLD is looked at every 4096 calls: a system call per call would slow
 * the program, not the recorder. */
static int go_on(long i, long n, const char *hold)
{
	if (i < n)
		return 1;
	return hold && (i % 4096 || access(hold, F_OK) == 0);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	const char *hold = argc > 2 ? argv[2] : NULL;

	first();
	for (long i = 0; go_on(i, n, hold); i++)
		sink += work(i);
	last();
	printf("done\n");
	return 0;
}
