// SPDX-License-Identifier: GPL-2.0
/*
 * Tail calls: tail_a() ends with "return tail_b(x)", and tail_b() with
 * "return tail_leaf(x)", which -O2 compiles into jumps: the callee's
 * return address slot is the caller's, already swapped by the graph
 * tracer.  The nesting must stay consistent.  Prints the result.
 */
#include <stdio.h>

#include "robust.h"

KEEP long tail_leaf(long x)
{
	sink = x;
	return x * 2;
}

KEEP long tail_b(long x)
{
	sink = x;
	return tail_leaf(x + 1);
}

KEEP long tail_a(long x)
{
	sink = x;
	return tail_b(x + 1);
}

KEEP long caller(long x)
{
	long r = tail_a(x) + tail_a(x + 1);

	sink = r;
	return r;
}

int main(void)
{
	long r = caller(1);

	printf("%ld\n", r);
	return 0;
}
