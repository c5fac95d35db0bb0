// SPDX-License-Identifier: GPL-2.0
/*
 * Signals that land inside the tracer: main calls a tiny traced function
 * in a tight loop, so that most of its time goes to the tracer's hooks,
 * while SIGALRM comes every 200 us (setitimer) and its handler calls a
 * traced function CALLS times.  Prints how many times the handler ran and
 * how many traced calls the handlers made (themselves included): the
 * report must show each of them, or count it lost.
 *
 * "deep": the SIGALRM handler calls DEEP_CALLS times, and SIGPROF (every
 * 200 us of CPU time) has a handler too, which may land inside the
 * SIGALRM handler while that is inside the tracer: a third level, whose
 * calls are counted lost.
 *
 * "jump": the handler ends with siglongjmp back into main, abandoning the
 * hook it interrupted, if it did.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "robust.h"

#define CALLS 5
#define DEEP_CALLS 500
#define RUNS 200

static volatile long runs, prof_runs;
static volatile long alarm_calls, prof_calls;	/* one per handler: they nest */
static int calls = CALLS;
static int jump;
static sigjmp_buf back;
static long x;

KEEP long handler_call(long x)
{
	sink = x;
	return x + 1;
}

KEEP void on_alarm(int sig)
{
	long x = sig;

	for (int i = 0; i < calls; i++)
		x = handler_call(x);
	alarm_calls += 1 + calls;
	runs++;
	if (jump)
		siglongjmp(back, 1);
}

KEEP void on_prof(int sig)
{
	long x = sig;

	for (int i = 0; i < CALLS; i++)
		x = handler_call(x);
	prof_calls += 1 + CALLS;
	prof_runs++;
}

KEEP long tiny(long x)
{
	sink = x;
	return x ^ 1;
}

static void timer(int which, long usec)
{
	struct itimerval it = { .it_interval = { 0, usec }, .it_value = { 0, usec } };

	setitimer(which, &it, NULL);
}

static void handle(int sig, void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigaction(sig, &sa, NULL);
}

int main(int argc, char **argv)
{
	int deep = argc > 1 && !strcmp(argv[1], "deep");

	jump = argc > 1 && !strcmp(argv[1], "jump");
	handle(SIGALRM, on_alarm);
	if (deep) {
		calls = DEEP_CALLS;
		handle(SIGPROF, on_prof);
		timer(ITIMER_PROF, 200);
	}
	timer(ITIMER_REAL, 200);
	if (jump)
		sigsetjmp(back, 1);
	while (runs < RUNS)
		x = tiny(x);
	/* A signal already pending is handled on the way out of these
	 * calls, before the counts are read. */
	timer(ITIMER_REAL, 0);
	timer(ITIMER_PROF, 0);
	printf("handler ran %ld times, %ld traced calls in handlers\n", runs,
	       alarm_calls + prof_calls);
	return 0;
}
