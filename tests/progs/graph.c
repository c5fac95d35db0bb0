// SPDX-License-Identifier: GPL-2.0
/*
 * A fixed call tree for the compiler x flags x -O matrix: static and
 * global functions, recursion, a call through a pointer, a function with
 * a float argument (whose register the tracer must not touch).  Every
 * function is kept out of line and out of interprocedural cloning, and
 * does work after its calls so that none becomes a tail call, so that
 * -O0 and -O2 give the same graph.
 */
#include <stdio.h>

#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noipa))
#endif

static volatile int sink;

KEEP static int leaf(int x)
{
	sink = x;
	return x + 1;
}

KEEP int fib(int n)
{
	int r = n < 2 ? n : fib(n - 1) + fib(n - 2);

	sink = r;
	return r;
}

KEEP double scale(double v, int by)
{
	double r = v * by;

	sink = by;
	return r;
}

KEEP static int through_pointer(int (*fn)(int), int x)
{
	int r = fn(x) * 2;

	sink = r;
	return r;
}

KEEP int compute(int n)
{
	int r = leaf(n) + fib(3) + through_pointer(leaf, n);

	sink = r;
	return r;
}

int main(void)
{
	int r = compute(5);
	double d = scale(1.5, 4);

	printf("%d %.1f\n", r, d);
	return 0;
}
