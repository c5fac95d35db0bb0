// SPDX-License-Identifier: GPL-2.0
/*
 * A call tree with known durations for report's filters:
 *
 *   main -> outer -> middle -> fast
 *                           -> slow (spins 20 ms) -> fast
 *                 -> noted (writes the marker "in noted")
 *                 -> fast
 *
 * Every call but slow and its callers returns at once.  The marker is
 * written through the runtime's fntrace_ctl_write(), found with dlsym()
 * so that the program runs without the runtime too.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <time.h>

#define KEEP __attribute__((noipa))

typedef int (*ctl_write_fn)(const char *file, const char *value, int append,
			    char *err, size_t errlen);

static volatile int sink;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

KEEP int fast(int x)
{
	sink = x;
	return x + 1;
}

/* Busy, not asleep: the time is the call's, whatever the scheduler. */
KEEP int slow(void)
{
	long long end = now_ns() + 20000000;

	int r;

	while (now_ns() < end)
		sink++;
	r = fast(1);
	sink = r;	/* work after the call: no tail call to fast */
	return r;
}

KEEP int middle(void)
{
	int r = fast(2);

	r += slow();
	sink = r;
	return r;
}

KEEP void noted(void)
{
	ctl_write_fn write = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");
	char err[128];

	if (write)
		write("trace_marker", "in noted", 0, err, sizeof(err));
	sink = 0;
}

KEEP int outer(void)
{
	int r = middle();

	noted();
	r += fast(3);
	sink = r;
	return r;
}

int main(void)
{
	return outer() > 0 ? 0 : 1;
}
