// SPDX-License-Identifier: GPL-2.0
/* Threads that call the same functions at the same moment, for the
 * function triggers.  THREADS (argv[1]) threads each call
 * outer() -> inner() -> hit() -> leaf(), released together from a
 * barrier.  Steps come as the arguments after THREADS or, with none, on
 * stdin, a line each; each is answered "ok STEP CALLS" on stdout once
 * done, CALLS the calls of leaf() it made:
 *
 *   calls N     every thread calls outer() N times, all at once
 *   hold FILE   every thread calls outer() while FILE is there
 *   off         flip_off() is called once (a traceoff trigger's function)
 *   on          flip_on() is called once
 *
 * At the end it prints "calls TOTAL": the same traced or not. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long sink;

__attribute__((noinline)) void leaf(void)
{
	__atomic_fetch_add(&sink, 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) void hit(void)
{
	leaf();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void inner(void)
{
	hit();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void outer(void)
{
	inner();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void flip_off(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void flip_on(void)
{
	__asm__ volatile("" ::: "memory");
}

static pthread_barrier_t start;
static int calls;
static const char *hold;

static void *worker(void *arg)
{
	pthread_barrier_wait(&start);
	for (int i = 0; i < calls || (hold && access(hold, F_OK) == 0); i++)
		outer();
	return arg;
}

static void round_of_calls(int threads, int n, const char *file)
{
	pthread_t *t = calloc(threads, sizeof(*t));

	calls = n;
	hold = file;
	pthread_barrier_init(&start, NULL, threads);
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start);
	free(t);
}

/* One step; 1 if it was one, 0 if not understood. */
static int step(int threads, const char *what, const char *arg)
{
	long before = __atomic_load_n(&sink, __ATOMIC_RELAXED);

	if (!strcmp(what, "calls") && arg)
		round_of_calls(threads, atoi(arg), NULL);
	else if (!strcmp(what, "hold") && arg)
		round_of_calls(threads, 0, arg);
	else if (!strcmp(what, "off"))
		flip_off();
	else if (!strcmp(what, "on"))
		flip_on();
	else
		return 0;
	printf("ok %s %ld\n", what, __atomic_load_n(&sink, __ATOMIC_RELAXED) - before);
	fflush(stdout);
	return 1;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	char line[64], what[16], arg[16];

	for (int i = 2; i < argc; i++)
		if (!step(threads, argv[i], i + 1 < argc ? argv[i + 1] : NULL))
			return 2;
		else if (!strcmp(argv[i], "calls") || !strcmp(argv[i], "hold"))
			i++;
	while (argc <= 2 && fgets(line, sizeof(line), stdin)) {
		int n = sscanf(line, "%15s %15s", what, arg);

		if (n >= 1 && !step(threads, what, n == 2 ? arg : NULL))
			return 2;
	}
	printf("calls %ld\n", sink);
	return 0;
}
