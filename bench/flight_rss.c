// SPDX-License-Identifier: GPL-2.0
/*
 * Memory over a long flight recording (bench/flight_rss.sh), run under
 * `fntrace record --overwrite`:
 *
 *   flight_rss CALLS THREADS CALLS_PER_THREAD
 *
 * THREADS threads at a time each call a leaf function CALLS_PER_THREAD
 * times and end; as the oldest ends another starts, until CALLS calls in
 * all.  Threads come and go thousands of times, so that whatever the
 * runtime keeps per thread and never gives back (a shadow stack, a
 * registry entry, a chunk) grows the process, which a run of threads
 * that live for ever would not show.  The leaf is as cheap as a call
 * gets: what the run costs is the tracer's.
 *
 * At each thread's end the main thread prints the calls made by then and
 * the resident memory of the process and of its parent, the recorder
 * (from /proc/PID/statm; -1 if the parent is not fntrace), and the part
 * of each that is not shared (the ring and the snapshot buffer are):
 *
 *   calls N rss_kb K anon_kb A recorder_kb R recorder_anon_kb S
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa))
#define MAX_THREADS 64

static long per_thread;
static volatile unsigned long sink;

NOIPA unsigned long leaf(unsigned long x)
{
	return x + 1;
}

NOIPA static void *worker(void *arg)
{
	unsigned long x = (uintptr_t)arg;

	for (long i = 0; i < per_thread; i++)
		x = leaf(x);
	sink = x;
	return NULL;
}

/* Resident and not shared memory of /proc/PID (0: self), in KB; -1 if
 * it cannot be read. */
static void memory_of(pid_t pid, long *rss_kb, long *anon_kb)
{
	char path[64];
	long size, resident, shared, page_kb = sysconf(_SC_PAGESIZE) / 1024;
	FILE *f;

	*rss_kb = *anon_kb = -1;
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/statm");
	f = fopen(path, "r");
	if (!f)
		return;
	if (fscanf(f, "%ld %ld %ld", &size, &resident, &shared) == 3) {
		*rss_kb = resident * page_kb;
		*anon_kb = (resident - shared) * page_kb;
	}
	fclose(f);
}

/* The parent, if it is the recorder (fntrace record runs the program as
 * its child); 0 if not. */
static pid_t recorder(void)
{
	char path[64], comm[32] = "";
	pid_t pid = getppid();
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return strncmp(comm, "fntrace", 7) ? 0 : pid;
}

static void sample(long long calls, pid_t rec)
{
	long rss, anon, rec_rss = -1, rec_anon = -1;

	memory_of(0, &rss, &anon);
	if (rec)
		memory_of(rec, &rec_rss, &rec_anon);
	printf("calls %lld rss_kb %ld anon_kb %ld recorder_kb %ld recorder_anon_kb %ld\n",
	       calls, rss, anon, rec_rss, rec_anon);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	long long calls, started = 0, ended = 0, done = 0;
	pthread_t t[MAX_THREADS];
	long threads;
	pid_t rec = recorder();

	if (argc < 4)
		return 2;
	calls = atoll(argv[1]);
	threads = atol(argv[2]);
	per_thread = atol(argv[3]);
	if (calls < 1 || threads < 1 || threads > MAX_THREADS || per_thread < 1) {
		fprintf(stderr, "usage: flight_rss CALLS THREADS(1-%d) CALLS_PER_THREAD\n",
			MAX_THREADS);
		return 2;
	}
	/* A ring of THREADS slots, the oldest thread at ended % threads. */
	for (; started < threads && started * per_thread < calls; started++)
		pthread_create(&t[started % threads], NULL, worker, (void *)(uintptr_t)started);
	while (ended < started) {
		pthread_join(t[ended % threads], NULL);
		ended++;
		done += per_thread;
		sample(done, rec);
		if (started * per_thread < calls) {
			pthread_create(&t[started % threads], NULL, worker,
				       (void *)(uintptr_t)started);
			started++;
		}
	}
	printf("calls %lld threads %lld\n", done, ended);
	return 0;
}
