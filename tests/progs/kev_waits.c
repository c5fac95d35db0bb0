// SPDX-License-Identifier: GPL-2.0
/*
 * Waits of known kinds, each in a function of its own that measures how
 * long it was off the CPU by its own clock and prints it, for the kernel
 * events' test (record -e) to compare with the context switches the
 * recording holds: a sleep (nap), a read of a pipe another thread writes
 * later (pipe_read), a mutex another thread holds (mutex_wait).  Then
 * some system calls of known number (many_getppid: 100 getppid, one
 * write), and threads made and ended (in_thread).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "robust.h"

static int fds[2];
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t locked;

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void sleep_ms(int ms)
{
	struct timespec t = { 0, ms * 1000000L };

	while (nanosleep(&t, &t))
		;
}

KEEP void nap(void)
{
	long long t0 = now_ns();

	sleep_ms(20);
	printf("nap %lld\n", now_ns() - t0);
}

static void *writer(void *arg)
{
	sleep_ms(30);
	if (write(fds[1], "x", 1) != 1)
		abort();
	return arg;
}

KEEP void pipe_read(void)
{
	pthread_t t;
	char c;
	long long t0;

	if (pipe(fds) || pthread_create(&t, NULL, writer, NULL))
		abort();
	t0 = now_ns();
	if (read(fds[0], &c, 1) != 1)
		abort();
	printf("pipe %lld\n", now_ns() - t0);
	pthread_join(t, NULL);
}

static void *holder(void *arg)
{
	pthread_mutex_lock(&held);
	pthread_barrier_wait(&locked);
	sleep_ms(40);
	pthread_mutex_unlock(&held);
	return arg;
}

KEEP void mutex_wait(void)
{
	pthread_t t;
	long long t0;

	pthread_barrier_init(&locked, NULL, 2);
	if (pthread_create(&t, NULL, holder, NULL))
		abort();
	pthread_barrier_wait(&locked);
	t0 = now_ns();
	pthread_mutex_lock(&held);
	printf("mutex %lld\n", now_ns() - t0);
	pthread_mutex_unlock(&held);
	pthread_join(t, NULL);
}

KEEP void many_getppid(void)
{
	for (int i = 0; i < 100; i++)
		syscall(SYS_getppid);
	if (write(1, "", 0) < 0)
		abort();
}

static void *worker(void *arg)
{
	many_getppid();
	return arg;
}

KEEP void in_thread(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
		abort();
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < rounds; i++) {
		nap();
		pipe_read();
		mutex_wait();
		many_getppid();
		in_thread();
	}
	return 0;
}
