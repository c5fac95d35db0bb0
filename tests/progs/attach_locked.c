// SPDX-License-Identifier: GPL-2.0
/*
 * attach_locked LIB SECONDS DONE: a second thread dlopens LIB, whose
 * constructor may take its time (slow_ctor.c), while the main thread
 * calls mid() every 20 ms for SECONDS, and on until the file DONE exists
 * (the test traces it meanwhile, whatever the machine's load).  Prints
 * the library's value and the sum of the calls of the first SECONDS.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "spin.h"

static void *load(void *lib)
{
	void *h = dlopen(lib, RTLD_NOW);
	int (*value)(void) = h ? (int (*)(void))dlsym(h, "slow_ctor_value") : NULL;

	return (void *)(long)(value ? value() : -1);
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) * 50 : 0;
	pthread_t loader;
	void *value;
	long sum = 0;

	if (argc != 4 || pthread_create(&loader, NULL, load, argv[1]))
		return 2;
	for (int i = 0; i < n || access(argv[3], F_OK); i++) {
		int v = mid(i);

		sum += i < n ? v : 0;
		usleep(20000);
	}
	pthread_join(loader, &value);
	printf("%ld %ld\n", (long)value, sum);
	return 0;
}
