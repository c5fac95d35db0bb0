// SPDX-License-Identifier: GPL-2.0
/*
 * How a program ends, five traced frames deep: "exit" calls exit(7) from
 * depth5(), "abort" calls abort() there, "return" returns all the way and
 * main returns 0.  The frames open at the end must be in the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robust.h"

static const char *how;

KEEP long depth5(long x)
{
	sink = x;
	if (!strcmp(how, "exit"))
		exit(7);
	if (!strcmp(how, "abort"))
		abort();
	return x + 1;
}

#define LEVEL(name, next)			\
	KEEP long name(long x)			\
	{					\
		long r = next(x + 1);		\
						\
		sink = r;			\
		return r;			\
	}
LEVEL(depth4, depth5)
LEVEL(depth3, depth4)
LEVEL(depth2, depth3)
LEVEL(depth1, depth2)

int main(int argc, char **argv)
{
	how = argc > 1 ? argv[1] : "return";
	printf("%ld\n", depth1(1));
	return 0;
}
