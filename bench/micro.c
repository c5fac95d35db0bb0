// SPDX-License-Identifier: GPL-2.0
/*
 * A call-heavy micro-benchmark for fntrace: recursive fib plus a loop over
 * small functions, so that nearly all the time goes into calls and returns,
 * which is where a tracer's cost shows.
 *
 * Usage: micro [ITERATIONS]   (default 100; 11 972 calls each)
 * Prints a checksum, the same for every build flavor and every tracer.
 *
 * Every function is noipa: not inlined, and no clones (.isra, .constprop)
 * whose names would differ between builds.  clang (the LLVM XRay builds)
 * knows only noinline.  Both compilers turn one of fib's two calls into a
 * loop: an iteration makes 11 972 calls.
 */
#include <stdio.h>
#include <stdlib.h>

#ifdef __clang__
#define NOIPA __attribute__((noinline))
#else
#define NOIPA __attribute__((noipa))
#endif

struct state {
	unsigned h;
	unsigned n;
};

NOIPA static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOIPA static unsigned add3(unsigned a, unsigned b, unsigned c)
{
	return a + b * 3 + c;
}

NOIPA static unsigned mix(unsigned h, unsigned v)
{
	return (h ^ v) * 16777619u;
}

/* A double argument and result: vector registers must survive the hook. */
NOIPA static double scale(double x, int k)
{
	return x * k + 0.5;
}

NOIPA static void step(struct state *s, unsigned i)
{
	s->h = mix(s->h, add3(s->h, i, s->n));
	s->n++;
}

NOIPA static double iteration(struct state *s, int depth)
{
	double d = 0;

	s->h = mix(s->h, (unsigned)fib(depth));
	for (unsigned i = 0; i < 256; i++) {
		step(s, i);
		d += scale((double)(i & 15), (int)(s->h & 7));
	}
	return d;
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 100;
	struct state s = { 2166136261u, 0 };
	double d = 0;

	if (iters < 0) {
		fprintf(stderr, "usage: micro [ITERATIONS]\n");
		return 2;
	}
	for (long i = 0; i < iters; i++)
		d += iteration(&s, 20);
	printf("micro checksum %08x %.1f\n", s.h, d);
	return 0;
}
