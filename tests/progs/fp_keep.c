// SPDX-License-Identifier: GPL-2.0
/*
 * Floating-point arguments and return values through traced calls, for N
 * seconds (default 3): mix() takes eight doubles in xmm0-7 (or the
 * arch's FP argument registers) and returns one.  A tracer that touches
 * those registers between a function's entry and its body, or between
 * its return and its caller, changes the result.  Every value is an
 * integer well inside a double's exact range, so the check is exact.
 * Prints "fp kept N" or "fp wrong N of M", and exits 0 or 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline, noipa)) double mix(double a, double b, double c, double d,
					    double e, double f, double g, double h)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

__attribute__((noinline, noipa)) float halve(float x)
{
	return x / 2;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 3);
	unsigned long calls = 0, wrong = 0;

	for (unsigned long i = 0; now() < end; i++) {
		for (unsigned k = 0; k < 1000; k++, calls++) {
			double x = (double)((i * 1000 + k) % 100000);
			double want = 36 * x + 168;

			wrong += mix(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7) != want;
			wrong += halve((float)x) != (float)x / 2;
		}
	}
	if (wrong) {
		printf("fp wrong %lu of %lu\n", wrong, calls);
		return 1;
	}
	printf("fp kept\n");
	return 0;
}
