// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/cases/arch/return_sites_arch.sh: a function that looks at its
 * own return address at every call, called over and over (1000 times,
 * then for as long as the file argv[1] exists), and how many times that
 * address lay outside the program's text: a hijacked return points into
 * libfntrace.so.  With return sites on, never; a call that enters while
 * the batch that turns them on is written is hijacked, as it must be, so
 * the count starts again once the file argv[2] exists.
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
	long calls = 0, bad = 0;

	puts("ready");
	fflush(stdout);
	for (; calls < 1000 || (hold && access(hold, F_OK) == 0); calls++) {
		if (since && access(since, F_OK) == 0) {
			bad = 0;
			since = NULL;
		}
		bad += outer((int)calls);
		if (calls % 100 == 0)
			usleep(1000);
	}
	printf("%ld hijacked\n", bad);
	return 0;
}
