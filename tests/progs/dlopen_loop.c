// SPDX-License-Identifier: GPL-2.0
/*
 * dlopen_loop LIB HOLD: dlopen() and dlclose() LIB over and over while
 * the file HOLD exists, so that the main thread is inside the dynamic
 * loader most of the time, holding its lock.  Prints how many loads
 * failed (0).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long failed = 0;

	if (argc != 3)
		return 2;
	while (access(argv[2], F_OK) == 0) {
		void *h = dlopen(argv[1], RTLD_NOW);

		if (h)
			dlclose(h);
		else
			failed++;
	}
	printf("%ld loads failed\n", failed);
	return 0;
}
