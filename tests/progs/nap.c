// SPDX-License-Identifier: GPL-2.0
/*
 * Two calls that sleep 100 ms each: their durations in a report say
 * whether the recorder converted the program's clock ticks at the
 * program's rate (under qemu-user, aarch64's counter is not the host's).
 */
#include <time.h>

#include "robust.h"

KEEP void nap(void)
{
	struct timespec t = { 0, 100 * 1000 * 1000 };

	while (nanosleep(&t, &t))
		;
}

int main(void)
{
	nap();
	nap();
	return 0;
}
