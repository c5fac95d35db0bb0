// SPDX-License-Identifier: GPL-2.0
/*
 * Two coroutines (makecontext/swapcontext) ping-pong 100 times, each
 * calling traced functions on every turn.  How they switch:
 *   "direct": from their own start functions (ping, pong), so that no
 *             traced frame of the other coroutine is open above them;
 *   "nested": from inside a traced function, yield_to(), as coroutine
 *             libraries do: the shadow stack sees frames of two stacks
 *             interleaved.
 * Coroutine A (ping) finishes and returns to main through uc_link;
 * coroutine B (pong) is left suspended.  Prints a checksum of the turns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "robust.h"

#define TURNS 100
#define STACK (64 * 1024)

static ucontext_t main_ctx, a_ctx, b_ctx;
static int nested;
static long total;

KEEP long turn_leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP long turn(long x)
{
	long r = turn_leaf(x) * 2;

	sink = r;
	return r;
}

KEEP void yield_to(ucontext_t *from, ucontext_t *to)
{
	swapcontext(from, to);
	sink = 0;
}

static void pass(ucontext_t *from, ucontext_t *to)
{
	if (nested)
		yield_to(from, to);
	else
		swapcontext(from, to);
}

KEEP void ping(void)
{
	for (long i = 0; i < TURNS; i++) {
		total += turn(i);
		pass(&a_ctx, &b_ctx);
	}
	sink = 1;
}

KEEP void pong(void)
{
	for (long i = 0; i < TURNS; i++) {
		total += turn(1000 + i);
		pass(&b_ctx, &a_ctx);
	}
	sink = 2;
}

KEEP long run(void)
{
	getcontext(&a_ctx);
	a_ctx.uc_stack.ss_sp = malloc(STACK);
	a_ctx.uc_stack.ss_size = STACK;
	a_ctx.uc_link = &main_ctx;
	makecontext(&a_ctx, ping, 0);
	getcontext(&b_ctx);
	b_ctx.uc_stack.ss_sp = malloc(STACK);
	b_ctx.uc_stack.ss_size = STACK;
	b_ctx.uc_link = &main_ctx;
	makecontext(&b_ctx, pong, 0);
	swapcontext(&main_ctx, &a_ctx);
	sink = total;
	return total;
}

KEEP long after(long x)
{
	sink = x;
	return x + 1;
}

int main(int argc, char **argv)
{
	long r;

	nested = argc > 1 && !strcmp(argv[1], "nested");
	r = run();
	printf("total %ld after %ld\n", r, after(r));
	return 0;
}
