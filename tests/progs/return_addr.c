// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/cases/arch/return_sites_arch.sh: a function that looks at its
 * own return address at every call, called over and over (1000 times,
 * then for as long as the file argv[1] exists), and how many times that
 * address lay outside the program's text: a hijacked return points into
 * libfntrace.so.  With return sites on, never; a call that enters while
 * the batch that turns them on is written is hijacked, as it must be, so
 * the count starts again once the file argv[2] exists.  A tail call
 * through a register (every argument register taken, so that the
 * compiler picks a scratch one) checks that the site keeps it: how many
 * sums came out wrong.
 */
#include <stdio.h>
#include <unistd.h>

#include "robust.h"

extern char __executable_start[], etext[];

KEEP int hijacked(void)
{
	char *ret = __builtin_return_address(0);

	sink = (long)ret;
	return ret < __executable_start || ret >= etext;
}

typedef int sum8_fn(int, int, int, int, int, int, int, int);

KEEP int sum8(int a, int b, int c, int d, int e, int f, int g, int h)
{
	sink = a;
	return a + b + c + d + e + f + g + h;
}

sum8_fn *volatile sum8_ptr = sum8;

/* A tail call through a register: its site, before the jump, calls
 * ftrace_tail_caller. */
KEEP int via(sum8_fn *fn, int x)
{
	return fn(x, 1, 2, 3, 4, 5, 6, 7);
}

/* Its return comes after a call, through its own return site. */
KEEP int outer(int i)
{
	int bad = hijacked();

	sink = i;
	return bad;
}

int main(int argc, char **argv)
{
	const char *hold = argc > 1 ? argv[1] : NULL, *since = argc > 2 ? argv[2] : NULL;
	long calls = 0, bad = 0, wrong = 0;

	puts("ready");
	fflush(stdout);
	for (; calls < 1000 || (hold && access(hold, F_OK) == 0); calls++) {
		if (since && access(since, F_OK) == 0) {
			bad = 0;
			since = NULL;
		}
		bad += outer((int)calls);
		wrong += via(sum8_ptr, (int)calls) != (int)calls + 28;
		if (calls % 100 == 0)
			usleep(1000);
	}
	printf("%ld hijacked, %ld wrong\n", bad, wrong);
	return 0;
}
