// SPDX-License-Identifier: GPL-2.0
/*
 * What a snapshot costs the program (bench/snapshot.sh), run under
 * `fntrace record --overwrite -b KB` (a function_graph ring of KB):
 *
 *   snapshot WORKERS ROUNDS
 *
 * WORKERS threads call a small call tree in a loop and note the longest
 * gap between two iterations, in wall time and in the thread's own CPU
 * time (as bench/livepatch.c does).  Once the ring has wrapped, the main
 * thread asks for a snapshot ROUNDS times through the runtime's
 * fntrace_ctl_write() (its control thread copies the ring; the main
 * thread waits for it, the workers do not), and prints per round how long
 * it waited and the longest gaps any worker saw meanwhile, and the same
 * for a quiet window as long, for scale.  Between rounds it sleeps, so
 * that the recorder writes the snapshot out on a core of its own.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

typedef int (*ctl_write_fn)(const char *, const char *, int, char *, size_t);

#define SETTLE_US 2000

static atomic_int measuring, done;
static _Atomic uint64_t worst_wall;	/* ticks */
static _Atomic uint64_t worst_cpu;	/* ns */
static double ticks_per_us;
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

static void note_gap(_Atomic uint64_t *worst, uint64_t gap)
{
	uint64_t old = atomic_load(worst);

	while (gap > old && !atomic_compare_exchange_weak(worst, &old, gap))
		;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *worker(void *arg)
{
	unsigned sum = (unsigned)(uintptr_t)arg;
	uint64_t prev = __rdtsc(), prev_cpu = cpu_ns();

	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		uint64_t now, now_cpu;

		for (int k = 0; k < 4; k++)
			sum = node(sum);
		now = __rdtsc();
		now_cpu = cpu_ns();
		if (atomic_load_explicit(&measuring, memory_order_relaxed)) {
			note_gap(&worst_wall, now - prev);
			note_gap(&worst_cpu, now_cpu - prev_cpu);
		}
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

static void calibrate(void)
{
	double t0 = now_us();
	uint64_t c0 = __rdtsc();

	while (now_us() - t0 < 50000)
		;
	ticks_per_us = (__rdtsc() - c0) / (now_us() - t0);
}

static void window_open(void)
{
	atomic_store(&worst_wall, 0);
	atomic_store(&worst_cpu, 0);
	atomic_store(&measuring, 1);
}

/* Keep measuring a little, so that a gap still open counts; then close:
 * the worst gaps, wall and CPU, in us. */
static void window_close(double *wall_us, double *cpu_us)
{
	double t0 = now_us();

	while (now_us() - t0 < SETTLE_US)
		;
	atomic_store(&measuring, 0);
	*wall_us = atomic_load(&worst_wall) / ticks_per_us;
	*cpu_us = atomic_load(&worst_cpu) / 1000.0;
}

int main(int argc, char **argv)
{
	int workers = argc > 1 ? atoi(argv[1]) : 4, rounds = argc > 2 ? atoi(argv[2]) : 5;
	ctl_write_fn ctl = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");
	pthread_t t[64];
	char err[256];

	if (!ctl || workers < 1 || workers > 64) {
		fprintf(stderr, "usage: fntrace record --overwrite -- snapshot WORKERS ROUNDS\n");
		return 2;
	}
	calibrate();
	for (int i = 0; i < workers; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
	sleep(2);	/* the ring wraps: every chunk full */
	for (int r = 0; r < rounds; r++) {
		double took, wall, cpu, quiet_wall, quiet_cpu, t0;

		window_open();
		t0 = now_us();
		if (ctl("snapshot", "1", 0, err, sizeof(err))) {
			fprintf(stderr, "snapshot: %s\n", err);
			return 1;
		}
		took = now_us() - t0;
		window_close(&wall, &cpu);
		window_open();
		t0 = now_us();
		while (now_us() - t0 < took)
			;
		window_close(&quiet_wall, &quiet_cpu);
		printf("round %d asked_ms %.3f stall_wall_us %.1f stall_cpu_us %.1f "
		       "quiet_wall_us %.1f quiet_cpu_us %.1f\n", r, took / 1000, wall, cpu,
		       quiet_wall, quiet_cpu);
		fflush(stdout);
		sleep(2);	/* the recorder writes it out meanwhile */
	}
	atomic_store(&done, 1);
	for (int i = 0; i < workers; i++)
		pthread_join(t[i], NULL);
	return 0;
}
