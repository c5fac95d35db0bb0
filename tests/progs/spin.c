// SPDX-License-Identifier: GPL-2.0
/* Calls mid() -> leaf() every 20 ms for N seconds (default 5), then
 * prints the sum of what they returned: a program to switch tracing on
 * and off while it runs.  Given a file HOLD too, it goes on calling while
 * HOLD exists, past its N seconds, and prints the same sum: a test that
 * takes it through many steps removes HOLD when done, so a loaded
 * machine's slowness is no race against the program's clock. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "spin.h"

int main(int argc, char **argv)
{
	int n = (argc > 1 ? atoi(argv[1]) : 5) * 50;
	const char *hold = argc > 2 ? argv[2] : NULL;
	long sum = 0;

	for (int i = 0; i < n || (hold && access(hold, F_OK) == 0); i++) {
		int r = mid(i);

		if (i < n)
			sum += r;
		usleep(20000);
	}
	printf("%ld\n", sum);
	return 0;
}
