// SPDX-License-Identifier: GPL-2.0
/*
 * What a snapshot costs the program (bench/snapshot.sh), run under
 * `fntrace record --overwrite -b KB` (a function_graph ring of KB):
 *
 *   snapshot WORKERS ROUNDS [FIRST_CPU]
 *
 * WORKERS threads call a small call tree in a loop and note the gaps
 * between two iterations, in wall time and in the thread's own CPU time
 * (as bench/livepatch.c does): the longest of each, and how many wall
 * gaps exceed STALL_US.  With FIRST_CPU, worker i runs on CPU FIRST_CPU
 * + i alone (the script starts everything else on another CPU), so that
 * the scheduler adds no gap of its own beside what the program does.
 *
 * Once the ring has wrapped, the main thread asks for a snapshot ROUNDS
 * times through the runtime's fntrace_ctl_write() (its control thread
 * copies the ring; the main thread waits for it, the workers do not),
 * and measures three windows as long as each other:
 *
 *   snapshot  from the ask to the copy's end, and SETTLE_US more;
 *   writeout  right after: the recorder writes the copy out meanwhile;
 *   quiet     REST_S later, the recorder done: nothing but the tracing.
 *
 * One line per window:
 *
 *   round R window W ms L wall_us X cpu_us Y over N [asked_ms A]
 *
 * The main thread sleeps through every window (a futex while it waits
 * for the copy), so that it takes no CPU from the workers in one window
 * more than in another.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

typedef int (*ctl_write_fn)(const char *, const char *, int, char *, size_t);

#define MAX_WORKERS 64
#define SETTLE_US 2000		/* a gap still open at a window's end counts */
#define STALL_US 50		/* issue 32's goal for the longest stall */
#define WRAP_S 2		/* the ring wraps: every chunk full */
#define REST_S 2		/* the recorder writes a snapshot out */

/* One worker's figures in the open window, on a cache line of its own:
 * only it writes them while the window is open.  Where its last
 * iteration ended, so that a gap still open when the window closes
 * counts too (a worker that never ran in the window saw one as long). */
struct gaps {
	_Alignas(64) _Atomic uint64_t wall;	/* ticks */
	_Atomic uint64_t cpu;			/* ns */
	_Atomic uint64_t over;			/* wall gaps over STALL_US */
	_Atomic uint64_t last, last_cpu;	/* ticks, ns */
	clockid_t clock;			/* its CPU clock */
};

static struct gaps gaps[MAX_WORKERS];
static atomic_int measuring, done;
static double ticks_per_us;
static uint64_t stall_ticks;
static int first_cpu = -1;
static volatile unsigned sink;

__attribute__((noipa)) unsigned leaf(unsigned x)
{
	sink = x;
	return x * 3 + 1;
}

__attribute__((noipa)) unsigned node(unsigned x)
{
	unsigned r = leaf(x) + leaf(x + 1);

	sink = r;
	return r;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void note_max(_Atomic uint64_t *worst, uint64_t gap)
{
	if (gap > atomic_load_explicit(worst, memory_order_relaxed))
		atomic_store_explicit(worst, gap, memory_order_relaxed);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		fprintf(stderr, "snapshot: cannot run a worker on CPU %d alone\n", cpu);
}

static void *worker(void *arg)
{
	int me = (int)(uintptr_t)arg;
	struct gaps *g = &gaps[me];
	unsigned sum = (unsigned)me;
	uint64_t prev, prev_cpu;

	if (first_cpu >= 0)
		pin(first_cpu + me);
	prev = __rdtsc();
	prev_cpu = cpu_ns();
	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		uint64_t now, now_cpu;

		for (int k = 0; k < 4; k++)
			sum = node(sum);
		now = __rdtsc();
		now_cpu = cpu_ns();
		if (atomic_load_explicit(&measuring, memory_order_relaxed)) {
			note_max(&g->wall, now - prev);
			note_max(&g->cpu, now_cpu - prev_cpu);
			if (now - prev > stall_ticks)
				atomic_fetch_add_explicit(&g->over, 1, memory_order_relaxed);
		}
		atomic_store_explicit(&g->last, now, memory_order_relaxed);
		atomic_store_explicit(&g->last_cpu, now_cpu, memory_order_relaxed);
		prev = now;
		prev_cpu = now_cpu;
	}
	return (void *)(uintptr_t)sum;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void sleep_us(double us)
{
	struct timespec ts = { (time_t)(us / 1e6), (long)((us - (time_t)(us / 1e6) * 1e6) * 1e3) };

	nanosleep(&ts, NULL);
}

/* The TSC's rate, from a sleep: on this machine constant and the same on
 * every CPU (the kernel's tsc clocksource says so). */
static void calibrate(void)
{
	double t0 = now_us();
	uint64_t c0 = __rdtsc();

	sleep_us(50000);
	ticks_per_us = (__rdtsc() - c0) / (now_us() - t0);
	stall_ticks = (uint64_t)(STALL_US * ticks_per_us);
}

static void window_open(int workers)
{
	for (int i = 0; i < workers; i++) {
		atomic_store(&gaps[i].wall, 0);
		atomic_store(&gaps[i].cpu, 0);
		atomic_store(&gaps[i].over, 0);
	}
	atomic_store(&measuring, 1);
}

/* The gaps worker g is in now, as if they ended now: its last
 * iteration's end read before the clocks, so that they are later. */
static void open_gap(const struct gaps *g, uint64_t *wall, uint64_t *cpu)
{
	uint64_t last = atomic_load(&g->last), last_cpu = atomic_load(&g->last_cpu), now, now_cpu;
	struct timespec ts;

	now = __rdtsc();
	clock_gettime(g->clock, &ts);
	now_cpu = (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	*wall = now > last ? now - last : 0;
	*cpu = now_cpu > last_cpu ? now_cpu - last_cpu : 0;
}

/* Settle, close, print the worst of the workers. */
static void window_close(int workers, int round, const char *name, double opened,
			 const char *extra)
{
	uint64_t wall = 0, cpu = 0, over = 0;

	sleep_us(SETTLE_US);
	atomic_store(&measuring, 0);
	for (int i = 0; i < workers; i++) {
		uint64_t w, c, open_w, open_c;

		open_gap(&gaps[i], &open_w, &open_c);
		w = atomic_load(&gaps[i].wall);
		c = atomic_load(&gaps[i].cpu);
		w = open_w > w ? open_w : w;
		c = open_c > c ? open_c : c;
		wall = w > wall ? w : wall;
		cpu = c > cpu ? c : cpu;
		over += atomic_load(&gaps[i].over) + (open_w > stall_ticks);
	}
	printf("round %d window %s ms %.3f wall_us %.1f cpu_us %.1f over %llu%s\n", round, name,
	       (now_us() - opened) / 1000, wall / ticks_per_us, cpu / 1000.0,
	       (unsigned long long)over, extra);
	fflush(stdout);
}

/* A window of `us` in which the main thread only sleeps. */
static void window_idle(int workers, int round, const char *name, double us)
{
	double t0 = now_us();

	window_open(workers);
	sleep_us(us - SETTLE_US);
	window_close(workers, round, name, t0, "");
}

int main(int argc, char **argv)
{
	int workers = argc > 1 ? atoi(argv[1]) : 4, rounds = argc > 2 ? atoi(argv[2]) : 5;
	ctl_write_fn ctl = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");
	pthread_t t[MAX_WORKERS];
	char err[256];

	if (argc > 3)
		first_cpu = atoi(argv[3]);
	if (!ctl || workers < 1 || workers > MAX_WORKERS) {
		fprintf(stderr, "usage: fntrace record --overwrite -- snapshot WORKERS ROUNDS "
			"[FIRST_CPU]\n");
		return 2;
	}
	calibrate();
	for (int i = 0; i < workers; i++) {
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
		pthread_getcpuclockid(t[i], &gaps[i].clock);
	}
	sleep(WRAP_S);
	for (int r = 0; r < rounds; r++) {
		double t0 = now_us(), asked, len;
		char extra[64];

		window_open(workers);
		if (ctl("snapshot", "1", 0, err, sizeof(err))) {
			fprintf(stderr, "snapshot: %s\n", err);
			return 1;
		}
		asked = now_us() - t0;
		snprintf(extra, sizeof(extra), " asked_ms %.3f", asked / 1000);
		window_close(workers, r, "snapshot", t0, extra);
		len = now_us() - t0;
		window_idle(workers, r, "writeout", len);
		sleep(REST_S);
		window_idle(workers, r, "quiet", len);
	}
	atomic_store(&done, 1);
	for (int i = 0; i < workers; i++)
		pthread_join(t[i], NULL);
	return 0;
}
