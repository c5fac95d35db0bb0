// SPDX-License-Identifier: GPL-2.0
/*
 * The program robust_exec execs: a traced call tree, its pid, and exit
 * status 5.
 */
#include <stdio.h>
#include <unistd.h>

#include "robust.h"

KEEP long target_leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP long target_work(long x)
{
	long r = target_leaf(x) + target_leaf(x + 1);

	sink = r;
	return r;
}

int main(void)
{
	printf("target pid %d work %ld\n", (int)getpid(), target_work(1));
	return 5;
}
