// SPDX-License-Identifier: GPL-2.0
/*
 * Every stage of a process's life calls a function of its own, which
 * writes the stage's name: constructors (priority 101 and default), a C++
 * static object (lifetime_object.cpp), main, an atexit handler registered
 * before main and one in main, a destructor, a linked library's
 * constructor and destructor (lifetime_lib.c) and a dlopen()ed one's
 * (lifetime_dl.c, argv[1]), opened and closed.  The trace must show the
 * same calls in the same order.  With a directory argv[2], main makes
 * DIR/ready and waits (30 s at most) for DIR/go before it goes on: a
 * tracer may be switched on meanwhile.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lib_work(void);

static void stage(const char *name)
{
	if (write(STDOUT_FILENO, name, strlen(name)) < 0 || write(STDOUT_FILENO, "\n", 1) < 0)
		_exit(3);
}

__attribute__((noinline)) void in_ctor_101(void) { stage("in_ctor_101"); }
__attribute__((noinline)) void in_ctor(void) { stage("in_ctor"); }
__attribute__((noinline)) void in_main(void) { stage("in_main"); }
__attribute__((noinline)) void in_atexit_early(void) { stage("in_atexit_early"); }
__attribute__((noinline)) void in_atexit_main(void) { stage("in_atexit_main"); }
__attribute__((noinline)) void in_dtor(void) { stage("in_dtor"); }

static void atexit_early(void) { in_atexit_early(); }
static void atexit_main(void) { in_atexit_main(); }

__attribute__((constructor(101))) static void ctor_101(void) { in_ctor_101(); }
__attribute__((destructor)) static void dtor(void) { in_dtor(); }

__attribute__((constructor)) static void ctor(void)
{
	in_ctor();
	atexit(atexit_early);
}

static void wait_for_go(const char *dir)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/ready", dir);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/go", dir);
	for (int i = 0; i < 3000 && access(path, F_OK); i++)
		usleep(10000);
}

int main(int argc, char **argv)
{
	void (*work)(void);
	void *h;

	in_main();
	atexit(atexit_main);
	if (argc > 2)
		wait_for_go(argv[2]);
	lib_work();
	h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
	if (!h)
		return 1;
	work = (void (*)(void))dlsym(h, "dl_work");
	if (!work)
		return 1;
	work();
	return dlclose(h) ? 1 : 0;
}
