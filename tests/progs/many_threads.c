// SPDX-License-Identifier: GPL-2.0
/*
 * Many threads at once, for the buffer's chunks
 * (tests/cases/record/many_threads.sh).  Every thread prints its role
 * and its tid: "tid N", "idle N", "ended N" or "busy N".
 *
 *   many_threads THREADS CALLS [GO HOLD]
 *     THREADS threads, all alive together (a barrier), each calling tick()
 *     CALLS times and then last() once; they end together.  With GO and
 *     HOLD (files): the threads start once GO exists (tracing is switched
 *     on meanwhile), "ready" is printed when every call is made, and the
 *     threads stay alive while HOLD exists.
 *
 *   many_threads quiet THREADS CALLS GO HOLD
 *     THREADS quiet threads each call quiet() 1500 times and quiet_last()
 *     once; the even ones end, the odd ones stay alive and idle.  Then one
 *     busy thread calls tick() CALLS times, and "ready" is printed; the
 *     idle ones end when HOLD is gone.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "robust.h"

#define QUIET_CALLS 1500

static pthread_barrier_t all_alive, all_called;
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_end = PTHREAD_COND_INITIALIZER;
static int released;
static long calls;

KEEP long tick(long x)
{
	sink = x;
	return x + 1;
}

KEEP long last(long x)
{
	sink = x;
	return x;
}

KEEP long quiet(long x)
{
	sink = x;
	return x + 1;
}

KEEP long quiet_last(long x)
{
	sink = x;
	return x;
}

static void say_tid(const char *role)
{
	printf("%s %ld\n", role, (long)syscall(SYS_gettid));
}

static void wait_for_file(const char *path)
{
	while (access(path, F_OK))
		usleep(10000);
}

static void hold_while(const char *path)
{
	while (path && access(path, F_OK) == 0)
		usleep(10000);
}

/* Idle (not polling: a thousand threads would keep the machine busy)
 * until main releases every thread. */
static void idle(void)
{
	pthread_mutex_lock(&idle_lock);
	while (!released)
		pthread_cond_wait(&idle_end, &idle_lock);
	pthread_mutex_unlock(&idle_lock);
}

static void release_all(void)
{
	pthread_mutex_lock(&idle_lock);
	released = 1;
	pthread_cond_broadcast(&idle_end);
	pthread_mutex_unlock(&idle_lock);
}

KEEP void *worker(void *arg)
{
	long n = 0;

	say_tid("tid");
	pthread_barrier_wait(&all_alive);
	for (long i = 0; i < calls; i++)
		n = tick(n);
	last(n);
	pthread_barrier_wait(&all_called);
	idle();
	return NULL;
}

/* The odd ones idle until released; the even ones end. */
KEEP void *quiet_worker(void *arg)
{
	long n = 0;

	say_tid((long)arg % 2 ? "idle" : "ended");
	for (int i = 0; i < QUIET_CALLS; i++)
		n = quiet(n);
	quiet_last(n);
	pthread_barrier_wait(&all_called);
	if ((long)arg % 2)
		idle();
	return NULL;
}

KEEP void *busy_worker(void *arg)
{
	long n = 0;

	say_tid("busy");
	for (long i = 0; i < calls; i++)
		n = tick(n);
	last(n);
	return NULL;
}

static pthread_t start(void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	if (pthread_create(&t, &attr, fn, arg)) {
		perror("pthread_create");
		exit(1);
	}
	pthread_attr_destroy(&attr);
	return t;
}

static void all_at_once(int n, const char *hold)
{
	pthread_t *t = calloc(n, sizeof(*t));

	pthread_barrier_init(&all_alive, NULL, n);
	pthread_barrier_init(&all_called, NULL, n + 1);
	for (int i = 0; i < n; i++)
		t[i] = start(worker, NULL);
	pthread_barrier_wait(&all_called);
	printf("ready\n");
	hold_while(hold);
	release_all();
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
}

static void quiet_and_busy(int n, const char *hold)
{
	pthread_t *t = calloc(n, sizeof(*t));

	pthread_barrier_init(&all_called, NULL, n + 1);
	for (long i = 0; i < n; i++)
		t[i] = start(quiet_worker, (void *)i);
	pthread_barrier_wait(&all_called);
	for (int i = 0; i < n; i += 2)
		pthread_join(t[i], NULL);
	pthread_join(start(busy_worker, NULL), NULL);
	printf("ready\n");
	hold_while(hold);
	release_all();
	for (int i = 1; i < n; i += 2)
		pthread_join(t[i], NULL);
	free(t);
}

int main(int argc, char **argv)
{
	int quiet_mode = argc > 1 && !strcmp(argv[1], "quiet");
	char **arg = argv + 1 + quiet_mode;
	int n = argc > 2 + quiet_mode ? atoi(arg[0]) : 0;

	if (n < 1 || (quiet_mode && argc != 6) || (argc != 3 && argc != 5 && !quiet_mode)) {
		fprintf(stderr, "usage: many_threads [quiet] THREADS CALLS [GO HOLD]\n");
		return 2;
	}
	calls = atol(arg[1]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (arg[2])
		wait_for_file(arg[2]);
	if (quiet_mode)
		quiet_and_busy(n, arg[3]);
	else
		all_at_once(n, arg[2] ? arg[3] : NULL);
	return 0;
}
