// SPDX-License-Identifier: GPL-2.0
/*
 * longjmp out of three traced frames, 100 times, and siglongjmp the same
 * way ("sig" argument): try_once() sets the jump buffer and calls
 * f1() -> f2() -> f3(), which jumps back; try_once() then calls landed().
 * Prints how many jumps landed and a checksum.
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "robust.h"

static jmp_buf env;
static sigjmp_buf sigenv;
static int use_sig;

KEEP void f3(long x)
{
	sink = x;
	if (use_sig)
		siglongjmp(sigenv, (int)x);
	longjmp(env, (int)x);
}

KEEP void f2(long x)
{
	f3(x + 1);
	sink = x;
}

KEEP void f1(long x)
{
	f2(x + 1);
	sink = x;
}

KEEP long landed(long x)
{
	sink = x;
	return x;
}

KEEP long try_once(long x)
{
	volatile long r = -1000;
	int v;

	v = use_sig ? sigsetjmp(sigenv, 1) : setjmp(env);
	if (v == 0)
		f1(x);
	else
		r = landed(v);
	sink = r;
	return r;
}

int main(int argc, char **argv)
{
	long sum = 0, jumps = 0;

	use_sig = argc > 1 && !strcmp(argv[1], "sig");
	for (long i = 1; i <= 100; i++) {
		long r = try_once(i);

		jumps += r == i + 2;
		sum += r;
	}
	printf("%ld jumps landed, sum %ld\n", jumps, sum);
	return 0;
}
