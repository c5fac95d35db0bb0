// SPDX-License-Identifier: GPL-2.0
/*
 * Live patching benchmark, run under `fntrace run` with a generated table
 * of functions (bench/livepatch.sh):
 *
 *   livepatch WORKERS ROUNDS
 *
 * WORKERS threads call eight of the functions in a loop and note the
 * longest gap between two loop iterations, in wall time and in the
 * thread's own CPU time.  Wall time also counts the time the scheduler
 * gave the CPU to someone else (on a virtual machine, whole timer ticks);
 * CPU time counts only what the thread itself spent, in traps, handlers
 * or parked, but not preemption.  The main thread switches the function
 * tracer on and off for every function ROUNDS times through the runtime's
 * fntrace_ctl_write(), and prints, per round, the time to enable and to
 * disable, the longest gaps any worker saw while the sites changed (and a
 * little after, so that a gap still open at the end counts), and the same
 * for a quiet window as long, for scale.  FNTRACE_PATCH=stop makes the
 * runtime stop the workers instead (the baseline).
 *
 * Each line also counts the first worker's context switches during the
 * switches' windows: those it asked for (slept, say on a lock) and those
 * it did not (preempted).  A wall-time gap far longer than the CPU-time
 * one, in a window where this kernel never switched the worker out, was
 * time the worker's virtual CPU did not run at all: the hypervisor's.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

extern unsigned (*const bench_funcs[])(unsigned);
extern const unsigned bench_nr_funcs;

typedef int (*ctl_write_fn)(const char *, const char *, int, char *, size_t);

#define SETTLE_US 2000

static atomic_int measuring, done;
static _Atomic uint64_t worst_wall;	/* ticks */
static _Atomic uint64_t worst_cpu;	/* ns */
static double ticks_per_us;
static _Atomic pid_t first_worker;

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
	unsigned sum = (unsigned)(uintptr_t)arg, stride = bench_nr_funcs / 8;
	uint64_t prev = __rdtsc(), prev_cpu = cpu_ns();
	pid_t none = 0;

	atomic_compare_exchange_strong(&first_worker, &none, (pid_t)syscall(SYS_gettid));

	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		uint64_t now, now_cpu;

		for (unsigned k = 0; k < 8; k++)
			sum = bench_funcs[k * stride](sum);
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

struct stall {
	double wall_us, cpu_us;
	long slept, preempted;	/* the first worker's context switches */
};

/* The first worker's context switches so far, from /proc: slept, preempted. */
static void worker_switches(long *slept, long *preempted)
{
	char path[64], line[128];
	FILE *f;

	*slept = *preempted = 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)atomic_load(&first_worker));
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", slept) != 1)
			sscanf(line, "nonvoluntary_ctxt_switches: %ld", preempted);
	fclose(f);
}

static void window_open(struct stall *s)
{
	worker_switches(&s->slept, &s->preempted);
	atomic_store(&worst_wall, 0);
	atomic_store(&worst_cpu, 0);
	atomic_store(&measuring, 1);
}

/* Keep measuring a little, so that a gap still open counts; then close. */
static void window_close(struct stall *s)
{
	long slept = s->slept, preempted = s->preempted;
	double t0 = now_us();

	while (now_us() - t0 < SETTLE_US)
		;
	atomic_store(&measuring, 0);
	worker_switches(&s->slept, &s->preempted);
	s->slept -= slept;
	s->preempted -= preempted;
	s->wall_us = atomic_load(&worst_wall) / ticks_per_us;
	s->cpu_us = atomic_load(&worst_cpu) / 1000.0;
}

/* Time one switch, and the worst gaps the workers saw during it. */
static double timed_switch(ctl_write_fn ctl, const char *tracer, struct stall *s)
{
	char err[256];
	double t0;

	window_open(s);
	t0 = now_us();
	if (ctl("current_tracer", tracer, 0, err, sizeof(err))) {
		fprintf(stderr, "livepatch: %s\n", err);
		exit(1);
	}
	t0 = now_us() - t0;
	window_close(s);
	return t0;
}

/* The worst gaps in a quiet window as long as a switch took. */
static void quiet_stall(double us, struct stall *s)
{
	double t0 = now_us();

	window_open(s);
	while (now_us() - t0 < us)
		;
	window_close(s);
}

static double worse(double a, double b)
{
	return a > b ? a : b;
}

int main(int argc, char **argv)
{
	int workers = argc > 1 ? atoi(argv[1]) : 1, rounds = argc > 2 ? atoi(argv[2]) : 5;
	ctl_write_fn ctl = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");
	pthread_t t[64];

	if (!ctl || workers < 1 || workers > 64) {
		fprintf(stderr, "usage: fntrace run -- livepatch WORKERS ROUNDS\n");
		return 2;
	}
	calibrate();
	for (int i = 0; i < workers; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
	while (!atomic_load(&first_worker))
		;
	printf("functions %u workers %d\n", bench_nr_funcs, workers);
	for (int r = 0; r < rounds; r++) {
		struct stall s_on, s_off, q;
		double on = timed_switch(ctl, "function", &s_on);
		double off = timed_switch(ctl, "nop", &s_off);

		quiet_stall(worse(on, off), &q);
		printf("round %d enable_ms %.3f disable_ms %.3f stall_wall_us %.1f stall_cpu_us %.1f "
		       "quiet_wall_us %.1f quiet_cpu_us %.1f worker_slept %ld worker_preempted %ld\n",
		       r, on / 1000, off / 1000, worse(s_on.wall_us, s_off.wall_us),
		       worse(s_on.cpu_us, s_off.cpu_us), q.wall_us, q.cpu_us,
		       s_on.slept + s_off.slept, s_on.preempted + s_off.preempted);
	}
	atomic_store(&done, 1);
	for (int i = 0; i < workers; i++)
		pthread_join(t[i], NULL);
	return 0;
}
