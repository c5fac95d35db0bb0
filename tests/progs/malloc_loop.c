// SPDX-License-Identifier: GPL-2.0
/*
 * malloc_loop HOLD: malloc() and free() blocks of many sizes over and
 * over while the file HOLD exists (one round at least), so that the main thread is inside the
 * C library's allocator most of the time, holding its arena's lock.
 * Prints the sum of the first bytes it wrote (the same every run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define SLOTS 64

int main(int argc, char **argv)
{
	unsigned char *keep[SLOTS] = { 0 };
	unsigned long sum = 0;

	if (argc != 2)
		return 2;
	for (unsigned long round = 0; round == 0 || access(argv[1], F_OK) == 0; round++)
		for (unsigned i = 0; i < 1000; i++) {
			unsigned k = (round + i) % SLOTS;

			free(keep[k]);
			keep[k] = malloc(16 + (i * 37) % 4000);
			keep[k][0] = (unsigned char)i;
			if (round == 0)
				sum += keep[k][0];
		}
	printf("%lu\n", sum);
	return 0;
}
