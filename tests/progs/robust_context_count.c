// SPDX-License-Identifier: GPL-2.0
/*
 * Calls the graph cannot follow, counted by the program itself: every
 * function here adds one to `calls` as it starts, and main prints the
 * total last, so that a test can check that the trace's calls and those
 * it counts as not graphed add up to it.
 *
 *   context N   a coroutine (makecontext/swapcontext) makes N calls of
 *               leaf(), then returns to main, which calls leaf() N times
 *               more: after the first swapcontext the graph tracer is
 *               suspended for the thread, so that most of these calls
 *               are not in the graph
 *   deep N      a recursion N deep, on a thread of its own whose stack
 *               has room for it, whatever `ulimit -s` says
 *   deep-exit N the same, but the deepest call ends the program (exit):
 *               none of the frames returns
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "robust.h"

#define COROUTINE_STACK (64 * 1024)
#define DEEP_FRAME_BYTES 256	/* more than a frame of descend() takes */

static long calls;
static ucontext_t main_ctx, co_ctx;
static long turns;
static int exit_at_bottom;

KEEP long leaf(long x)
{
	calls++;
	sink = x;
	return x + 1;
}

KEEP void coroutine(void)
{
	calls++;
	for (long i = 0; i < turns; i++)
		leaf(i);
}

KEEP long run_context(long n)
{
	calls++;
	turns = n;
	getcontext(&co_ctx);
	co_ctx.uc_stack.ss_sp = malloc(COROUTINE_STACK);
	co_ctx.uc_stack.ss_size = COROUTINE_STACK;
	co_ctx.uc_link = &main_ctx;
	makecontext(&co_ctx, coroutine, 0);
	swapcontext(&main_ctx, &co_ctx);
	for (long i = 0; i < n; i++)
		leaf(i);
	free(co_ctx.uc_stack.ss_sp);
	sink = n;
	return n;
}

KEEP long descend(long n)
{
	long r;

	calls++;
	if (n == 0 && exit_at_bottom) {
		printf("calls %ld\n", calls);
		exit(0);
	}
	r = n > 0 ? descend(n - 1) + 1 : 0;
	sink = r;
	return r;
}

KEEP void *deep_thread(void *arg)
{
	calls++;
	descend(*(long *)arg - 1);
	return NULL;
}

KEEP long run_deep(long n)
{
	pthread_attr_t attr;
	pthread_t t;

	calls++;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, (size_t)n * DEEP_FRAME_BYTES + (1 << 20));
	if (pthread_create(&t, &attr, deep_thread, &n)) {
		perror("pthread_create");
		exit(1);
	}
	pthread_join(t, NULL);
	return n;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1000;

	calls++;
	exit_at_bottom = argc > 1 && !strcmp(argv[1], "deep-exit");
	if (argc > 1 && (!strcmp(argv[1], "deep") || exit_at_bottom))
		run_deep(n);
	else
		run_context(n);
	printf("calls %ld\n", calls);
	return 0;
}
