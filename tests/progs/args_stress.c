// SPDX-License-Identifier: GPL-2.0
/*
 * Argument capture switched on and off under running threads: THREADS
 * workers call take(i, 2i, 3i, "worker", i / 4.0) in tight loops and
 * check what it returns, while the main thread rewrites set_ftrace_args
 * FLIPS times through the runtime's fntrace_ctl_write(): three specs in
 * turn, the last one empty.  A capture that read the wrong registers, or
 * changed the floating-point one, shows in the trace or in a result.
 *
 *   args_stress THREADS ITERATIONS FLIPS    prints "args stress: ok" or
 *                                          what went wrong, exits 0 or 1
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOIPA __attribute__((noipa))

NOIPA long take(long a, long b, long c, const char *who, double x)
{
	return a + b + c + (who ? 1 : 0) + (long)(x * 4);
}

static long iterations;

NOIPA static void *worker(void *arg)
{
	long wrong = 0;

	for (long i = 0; i < iterations; i++)
		wrong += take(i, 2 * i, 3 * i, "worker", i / 4.0) != 7 * i + 1;
	return (void *)wrong;
}

typedef int (*ctl_write_fn)(const char *, const char *, int, char *, size_t);

static const char *const specs[] = {
	"take@arg1,arg2,arg3,arg4/s,farg1 take@retval",
	"take@arg3/x,arg1",
	"",
};

static int flip(ctl_write_fn ctl, long flips)
{
	char err[256];

	for (long i = 0; i < flips; i++)
		if (ctl("set_ftrace_args", specs[i % 3], 0, err, sizeof(err))) {
			fprintf(stderr, "args stress: flip %ld: %s\n", i, err);
			return -1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	long flips = argc > 3 ? atol(argv[3]) : 100, wrong = 0;
	ctl_write_fn ctl = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");
	pthread_t t[64];

	iterations = argc > 2 ? atol(argv[2]) : 100000;
	if (threads < 1 || threads > 64)
		return 2;
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	if (ctl && flip(ctl, flips))
		return 1;
	for (int i = 0; i < threads; i++) {
		void *r;

		pthread_join(t[i], &r);
		wrong += (long)r;
	}
	if (wrong) {
		printf("args stress: %ld wrong results\n", wrong);
		return 1;
	}
	printf("args stress: ok\n");
	return 0;
}
