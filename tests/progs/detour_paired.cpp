// SPDX-License-Identifier: GPL-2.0
/*
 * Detours the graph tracer takes return through the call their stub made
 * just before return_to_handler (x86_64, docs/design.md "Detours in the
 * running process"): each return must still come back where its caller
 * called, whatever the path.  Built with plain -O2, no call sites.
 *
 *   detour_paired N     recursion N deep (deeper than the shadow stack:
 *                       frames paired and not, on one stack), calls from
 *                       16 call sites, a tail call from one detour into
 *                       another, a throw through two, a longjmp out of
 *                       one; prints the results, then "stub S": the low
 *                       four bits of the word 16 bytes below peek()'s
 *                       return slot, as its moved first instruction read
 *                       it: 7 where the stub paired the call (the copy's
 *                       address, stub + 39, which the stub stored there
 *                       for ftrace_detour_call), 8 where it did not (the
 *                       hook's return address, stub + 8).
 */
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#define NOIPA __attribute__((noipa))

extern "C" long peek(void);
asm(".text\n"
    ".globl peek\n"
    ".type peek, @function\n"
    "peek:\n"
    "	movq -16(%rsp), %rax\n"
    "	ret\n"
    ".size peek, . - peek\n");

NOIPA long down(long n);
long (*volatile down_p)(long) = down;

/* Not a tail call: the add comes after. */
NOIPA long down(long n)
{
	return n ? down_p(n - 1) + 2 : 0;
}

NOIPA long leaf(long x)
{
	return x * 3 + 1;
}

/* A tail call: jmp leaf. */
NOIPA long tail_to(long x)
{
	return leaf(x * 7 + 5);
}

#define SITES4(b) s += leaf(b); s += leaf(b + 1) * 2; s += leaf(b + 2) ^ 5; s += leaf(b + 3) - 1;

NOIPA long fan(long b)
{
	long s = 0;

	SITES4(b) SITES4(b + 4) SITES4(b + 8) SITES4(b + 12)
	return s + tail_to(b);
}

NOIPA long thrower(long n)
{
	if (n % 3 == 0)
		throw std::runtime_error("thrown");
	return n;
}

long bias;

/* Its first instructions read bias: no call among the moved ones (a
 * moved call's return address, in the stub, stops an unwinder). */
NOIPA long through(long n)
{
	return thrower(n + bias) + 1;
}

static jmp_buf jump;

NOIPA long jumper(long n)
{
	if (n % 4 == 0)
		longjmp(jump, 1);
	return n;
}

NOIPA long over(long n)
{
	return jumper(n + bias) * 2;
}

int main(int argc, char **argv)
{
	long deep = argc > 1 ? strtol(argv[1], NULL, 10) : 10000;
	long fans = 0, caught = 0, thrown_sum = 0;
	volatile long i, jumped = 0, over_sum = 0;	/* live across setjmp */

	printf("down %ld\n", down(deep));
	printf("down 500: %ld\n", down(500));
	for (long k = 0; k < 100; k++)
		fans += fan(k);
	printf("fan %ld\n", fans);
	for (long k = 0; k < 30; k++) {
		try {
			thrown_sum += through(k);
		} catch (const std::runtime_error &) {
			caught++;
		}
	}
	printf("through %ld, caught %ld\n", thrown_sum, caught);
	for (i = 0; i < 40; i++) {
		if (setjmp(jump)) {
			jumped++;
			continue;
		}
		over_sum += over(i);
	}
	printf("over %ld, jumped %ld\n", (long)over_sum, (long)jumped);
	printf("stub %ld\n", peek() & 15);
	return 0;
}
