// SPDX-License-Identifier: GPL-2.0
/* Calls mid() -> leaf() every 20 ms for N seconds (default 5), then
 * prints how many calls it made: a program to switch tracing on and off
 * while it runs. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "spin.h"

int main(int argc, char **argv)
{
	int n = (argc > 1 ? atoi(argv[1]) : 5) * 50;
	long sum = 0;

	for (int i = 0; i < n; i++) {
		sum += mid(i);
		usleep(20000);
	}
	printf("%ld\n", sum);
	return 0;
}
