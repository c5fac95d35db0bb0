// SPDX-License-Identifier: GPL-2.0
/*
 * Recursion 3000 deep (the shadow stack holds 1024 frames): the calls
 * below the shadow stack's depth run untraced.  Prints the result.
 */
#include <stdio.h>
#include <stdlib.h>

#include "robust.h"

KEEP long descend(long n)
{
	long r = n > 0 ? descend(n - 1) + 1 : 0;

	sink = r;
	return r;
}

KEEP long after(long x)
{
	sink = x;
	return x + 1;
}

int main(int argc, char **argv)
{
	long depth = argc > 1 ? atol(argv[1]) : 3000;
	long r = descend(depth - 1);

	printf("depth %ld after %ld\n", r + 1, after(r));
	return 0;
}
