// SPDX-License-Identifier: GPL-2.0
/*
 * attach_walker DIR LIB SECONDS: a second thread walks the module list
 * (dl_iterate_phdr, which holds a lock of the loader's) and stays in its
 * callback from the creation of DIR/in_walk until DIR/release appears;
 * then it dlopens LIB.  The main thread calls mid() every 20 ms for
 * SECONDS, and on until DIR/done appears (the test traces it meanwhile,
 * whatever the machine's load).  Prints the library's value and the sum
 * of the calls of the first SECONDS.
 */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "spin.h"

static const char *dir;

static void touch(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f)
		fclose(f);
}

static int wait_for_release(struct dl_phdr_info *info, size_t size, void *arg)
{
	char path[4096];

	(void)info, (void)size, (void)arg;
	touch("in_walk");
	snprintf(path, sizeof(path), "%s/release", dir);
	for (int i = 0; i < 3000 && access(path, F_OK); i++)
		usleep(10000);
	return 1;
}

static void *walk_then_load(void *lib)
{
	void *h;
	int (*value)(void);

	dl_iterate_phdr(wait_for_release, NULL);
	h = dlopen(lib, RTLD_NOW);
	value = h ? (int (*)(void))dlsym(h, "slow_ctor_value") : NULL;
	return (void *)(long)(value ? value() : -1);
}

int main(int argc, char **argv)
{
	int n = argc > 3 ? atoi(argv[3]) * 50 : 0;
	char done[4096];
	pthread_t walker;
	void *value;
	long sum = 0;

	dir = argv[1];
	if (argc != 4 || pthread_create(&walker, NULL, walk_then_load, argv[2]))
		return 2;
	snprintf(done, sizeof(done), "%s/done", dir);
	for (int i = 0; i < n || access(done, F_OK); i++) {
		int v = mid(i);

		sum += i < n ? v : 0;
		usleep(20000);
	}
	pthread_join(walker, &value);
	printf("%ld %ld\n", (long)value, sum);
	return 0;
}
