// SPDX-License-Identifier: GPL-2.0
/*
 * A program to flight-record (tests/cases/record/flight.sh): while the
 * file HOLD exists, it runs
 *
 *   - a burst thread first, which makes BURST calls of burst_call() as
 *     fast as it can (more than a small ring holds: it overwrites its
 *     own oldest events) and ends;
 *   - then a thread that calls ender_step() a hundred times, then
 *     ender_last() once, and ends: the file ENDED then exists;
 *   - two workers, calling worker_tick() every 2 ms, and the main thread
 *     main_tick() every 5 ms, until HOLD goes;
 *   - whenever the file ASK appears, the main thread writes 1 to the
 *     snapshot file itself (fntrace_ctl_write, through the runtime's
 *     request to its control thread), removes ASK and writes the result
 *     to ASKED: "ok", or the error.
 *
 * Given GO, it waits for that file first (for a tracer switched on once
 * the program runs).
 *
 *   flight HOLD ENDED ASK ASKED [BURST [GO]]
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "robust.h"

typedef int (*ctl_write_fn)(const char *, const char *, int, char *, size_t);

static const char *hold;
static long burst = 300000;

KEEP long burst_call(long x)
{
	sink = x;
	return x + 1;
}

KEEP long ender_step(long x)
{
	sink = x;
	return x * 2;
}

KEEP long ender_last(long x)
{
	sink = x;
	return x - 1;
}

KEEP long worker_tick(long x)
{
	sink = x;
	return x + 3;
}

KEEP long main_tick(long x)
{
	sink = x;
	return x + 5;
}

static int holding(void)
{
	return access(hold, F_OK) == 0;
}

static void *burster(void *arg)
{
	for (long i = 0; i < burst; i++)
		burst_call(i);
	return NULL;
}

static void *ender(void *arg)
{
	long r = 0;

	for (int i = 0; i < 100; i++)
		r += ender_step(i);
	ender_last(r);
	return NULL;
}

static void *worker(void *arg)
{
	for (long i = 0; holding(); i++) {
		worker_tick(i);
		usleep(2000);
	}
	return NULL;
}

static void run_thread(void *(*fn)(void *))
{
	pthread_t t;

	if (pthread_create(&t, NULL, fn, NULL) == 0)
		pthread_join(t, NULL);
}

static void touch(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* ASK: a snapshot asked for by this thread, its result in ASKED. */
static void answer(const char *ask, const char *asked)
{
	ctl_write_fn ctl = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");
	char err[256] = "ok";

	if (access(ask, F_OK))
		return;
	unlink(ask);
	if (!ctl)
		snprintf(err, sizeof(err), "no fntrace_ctl_write");
	else if (ctl("snapshot", "1", 0, err, sizeof(err)) == 0)
		snprintf(err, sizeof(err), "ok");
	touch(asked, err);
}

int main(int argc, char **argv)
{
	pthread_t workers[2];

	if (argc < 5)
		return 2;
	hold = argv[1];
	if (argc > 5)
		burst = atol(argv[5]);
	while (argc > 6 && access(argv[6], F_OK))
		usleep(10000);
	run_thread(burster);
	run_thread(ender);
	touch(argv[2], "");
	for (int i = 0; i < 2; i++)
		pthread_create(&workers[i], NULL, worker, NULL);
	for (long i = 0; holding(); i++) {
		main_tick(i);
		answer(argv[3], argv[4]);
		usleep(5000);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(workers[i], NULL);
	return 0;
}
