// SPDX-License-Identifier: GPL-2.0
/*
 * Live-switching stress: THREADS workers call a_* and b_* functions in
 * tight loops and fold their results into a checksum, while the main
 * thread flips set_ftrace_filter between "a_*" and "b_*" FLIPS times
 * through the runtime's fntrace_ctl_write().  c_never is never enabled.
 *
 *   stress THREADS ITERATIONS FLIPS     prints the checksum
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define NOIPA __attribute__((noipa))

NOIPA unsigned a_one(unsigned x) { return x * 3 + 1; }
NOIPA unsigned a_two(unsigned x) { return a_one(x) ^ 0x5a5a; }
NOIPA unsigned b_one(unsigned x) { return x * 7 + 3; }
NOIPA unsigned b_two(unsigned x) { return b_one(x) + a_one(x); }
NOIPA unsigned c_never(unsigned x) { return x + 11; }

static long iterations;
static atomic_int stop;

NOIPA static void *worker(void *arg)
{
	unsigned sum = (unsigned)(long)arg;

	for (long i = 0; i < iterations; i++)
		sum = a_two(sum) + b_two(sum) + c_never((unsigned)i);
	return (void *)(long)sum;
}

typedef int (*ctl_write_fn)(const char *, const char *, int, char *, size_t);

static int flip(ctl_write_fn ctl, long flips)
{
	char err[256];

	for (long i = 0; i < flips; i++)
		if (ctl("set_ftrace_filter", i % 2 ? "b_*" : "a_*", 0, err, sizeof(err))) {
			fprintf(stderr, "stress: flip %ld: %s\n", i, err);
			return -1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 8;
	long flips = argc > 3 ? atol(argv[3]) : 100;
	ctl_write_fn ctl = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");
	pthread_t t[64];
	unsigned total = 0;

	iterations = argc > 2 ? atol(argv[2]) : 100000;
	if (threads < 1 || threads > 64)
		return 2;
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	if (ctl && flip(ctl, flips))
		return 1;
	for (int i = 0; i < threads; i++) {
		void *r;

		pthread_join(t[i], &r);
		total += (unsigned)(long)r;
	}
	printf("%u\n", total);
	return 0;
}
