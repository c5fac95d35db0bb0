// SPDX-License-Identifier: GPL-2.0
/*
 * Argument capture switched on and off under running threads: THREADS
 * workers call take(i, 2i, 3i, "worker", i / 4.0) in tight loops and
 * check what it returns, while the main thread rewrites set_ftrace_args
 * FLIPS times through the runtime's fntrace_ctl_write(): three specs in
 * turn, the last one empty, each left in force for at least 200 calls.
 * The workers go on until the flips are done and each made ITERATIONS
 * calls.  A capture that read the wrong registers, or changed the
 * floating-point one, shows in the trace or in a result.
 *
 *   args_stress THREADS ITERATIONS FLIPS    prints "args stress: ok CALLS"
 *                                          or what went wrong; exits 0 or 1
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa))

NOIPA long take(long a, long b, long c, const char *who, double x)
{
	return a + b + c + (who ? 1 : 0) + (long)(x * 4);
}

static long iterations;
static atomic_long calls;
static atomic_int flipping = 1;
static atomic_long wrong;

NOIPA static void *worker(void *arg)
{
	long i;

	for (i = 0; i < iterations || atomic_load(&flipping); i++) {
		if (take(i, 2 * i, 3 * i, "worker", i / 4.0) != 7 * i + 1)
			atomic_fetch_add(&wrong, 1);
		atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
		/* Room for the flipping thread on a machine of few cores. */
		if (i % 64 == 63)
			usleep(50);
	}
	return NULL;
}

/* Until the workers made n more calls. */
static void calls_pass(long n)
{
	long until = atomic_load(&calls) + n;

	while (atomic_load(&calls) < until)
		;
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

	for (long i = 0; i < flips; i++) {
		if (ctl("set_ftrace_args", specs[i % 3], 0, err, sizeof(err))) {
			fprintf(stderr, "args stress: flip %ld: %s\n", i, err);
			return -1;
		}
		calls_pass(200);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	long flips = argc > 3 ? atol(argv[3]) : 100;
	ctl_write_fn ctl = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");
	pthread_t t[64];
	int failed;

	iterations = argc > 2 ? atol(argv[2]) : 100000;
	if (threads < 1 || threads > 64)
		return 2;
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	failed = ctl && flip(ctl, flips);
	atomic_store(&flipping, 0);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	if (failed)
		return 1;
	if (atomic_load(&wrong)) {
		printf("args stress: %ld wrong results\n", atomic_load(&wrong));
		return 1;
	}
	printf("args stress: ok %ld\n", atomic_load(&calls));
	return 0;
}
