// SPDX-License-Identifier: GPL-2.0
/* Calls g() -> f(), f() as fast as it can, N times (default: about
 * forever): millions of events a second for a streaming reader. */
#include <stdlib.h>

__attribute__((noinline)) int f(int i)
{
	return i * 7 + 1;
}

__attribute__((noinline)) int g(int i)
{
	return f(i) + f(i + 1);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1L << 62, sum = 0;

	for (long i = 0; i < n; i++)
		sum += g(i);
	return sum == 42;
}
