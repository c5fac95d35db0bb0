// SPDX-License-Identifier: GPL-2.0
/*
 * Loads a library only when told to: dl_late LIB DIR waits for the file
 * DIR/go, dlopens LIB, calls its gen_last() 100 times, creates DIR/done
 * and waits for DIR/stop.  A program whose module arrives after the user
 * switched something on.  Prints the sum of the results.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

static int wait_for(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (int i = 0; i < 3000; i++) {
		if (access(path, F_OK) == 0)
			return 0;
		usleep(10000);
	}
	fprintf(stderr, "dl_late: no %s after 30 s\n", path);
	return -1;
}

static void say_done(const char *dir)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/done", dir);
	f = fopen(path, "w");
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	long sum = 0;
	long (*gen_last)(long);
	void *h;

	if (argc != 3 || wait_for(argv[2], "go"))
		return 2;
	h = dlopen(argv[1], RTLD_NOW);
	gen_last = h ? (long (*)(long))dlsym(h, "gen_last") : NULL;
	if (!gen_last) {
		fprintf(stderr, "dl_late: %s\n", dlerror());
		return 1;
	}
	for (long i = 0; i < 100; i++)
		sum += gen_last(i);
	say_done(argv[2]);
	wait_for(argv[2], "stop");
	dlclose(h);
	printf("%ld\n", sum);
	return 0;
}
