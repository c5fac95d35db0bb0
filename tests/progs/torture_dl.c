// SPDX-License-Identifier: GPL-2.0
/*
 * The loader against the patcher (the torture case).  Three threads:
 *
 *   loader    dlopen()s and dlclose()s a traced library, over and over
 *   caller    opens it too, calls into it, checks the result, closes it
 *   switcher  flips set_ftrace_filter between the library and everything,
 *             and current_tracer between every tracer, ROUNDS times
 *
 * so that the library's text is mapped and unmapped under every kind of
 * update; each round waits for a call to be made since the last one, so
 * that the switcher cannot starve the others of the runtime's lock.
 * The switcher writes through the runtime's own
 * fntrace_ctl_write(); without the runtime it only counts rounds.
 * Prints the rounds, the calls and the wrong results (which must be 0),
 * and whether the address space stayed steady from a quarter of the rounds
 * on: the runtime must free what each update replaces.
 *
 * Usage: torture_dl LIBRARY [ROUNDS]
 */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robust.h"

typedef int (*ctl_write_fn)(const char *file, const char *value, int append,
			    char *err, size_t errlen);
typedef long (*eval_fn)(const char *);

static const char *library;
static atomic_int done;
static atomic_long calls;
static long wrong;

KEEP static void *loader(void *arg)
{
	while (!atomic_load(&done)) {
		void *h = dlopen(library, RTLD_NOW);

		if (h)
			dlclose(h);
	}
	return NULL;
}

KEEP static long call_once(long i)
{
	char expr[64];
	void *h = dlopen(library, RTLD_NOW);
	eval_fn eval = h ? (eval_fn)dlsym(h, "calc_eval") : NULL;
	long v = -1;

	snprintf(expr, sizeof(expr), "%ld * (3 + 4)", i);
	if (eval)
		v = eval(expr);
	if (h)
		dlclose(h);
	sink = v;
	return v;
}

KEEP static void *caller(void *arg)
{
	for (long i = 1; !atomic_load(&done); i++) {
		wrong += call_once(i) != 7 * i;
		atomic_fetch_add(&calls, 1);
	}
	return NULL;
}

static int ctl(ctl_write_fn write, const char *file, const char *value)
{
	char err[256];

	if (write(file, value, 0, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "torture_dl: %s %s: %s\n", file, value, err);
	return -1;
}

static const char *const tracers[] = { "function_graph", "nop", "function" };
static const char *const filters[] = { "*:mod:libcalc", "*" };

/*
 * The program's address space, in kB: the sum of its mappings in
 * /proc/self/maps but reservations (0 if unknown), not VmSize.  Under
 * qemu-user VmSize is the emulator's own, which grows by whole malloc
 * arenas of its threads (64 MB each) that are none of the program's; the
 * maps it shows are the program's alone.  A thread's first malloc() may
 * come at any time, and the arena it makes reserves 64 MB (---p) that it
 * has not used: what is not accessible is not counted.
 */
static long vm_size(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, bytes = 0;
	char *line = NULL, perms[5];
	size_t size = 0;

	while (f && getline(&line, &size, f) > 0)
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 &&
		    strcmp(perms, "---p") != 0)
			bytes += hi - lo;
	free(line);
	if (f)
		fclose(f);
	return bytes / 1024;
}

static long vm_start, vm_end;

static void wait_for_a_call(void)
{
	long seen = atomic_load(&calls);

	while (atomic_load(&calls) == seen)
		sched_yield();
}

static int switcher(long rounds)
{
	ctl_write_fn write = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");

	vm_start = vm_size();
	for (long r = 0; write && r < rounds; r++) {
		if (r == rounds / 4)
			vm_start = vm_size();
		if (ctl(write, "set_ftrace_filter", filters[r % 2]) ||
		    ctl(write, "current_tracer", tracers[r % 3]))
			return -1;
		wait_for_a_call();
	}
	vm_end = vm_size();
	return write ? ctl(write, "current_tracer", "nop") : 0;
}

/* Steady: grown by less than a few of the library's mappings. */
#define VM_STEADY_KB (16 * 1024)

int main(int argc, char **argv)
{
	long rounds = argc > 2 ? atol(argv[2]) : 10000;
	pthread_t load, call;
	int ret;

	if (argc < 2)
		return 2;
	library = argv[1];
	pthread_create(&load, NULL, loader, NULL);
	pthread_create(&call, NULL, caller, NULL);
	ret = switcher(rounds);
	atomic_store(&done, 1);
	pthread_join(load, NULL);
	pthread_join(call, NULL);
	printf("rounds %ld wrong %ld calls %s\n", rounds, wrong, calls > 0 ? "made" : "none");
	if (vm_end - vm_start < VM_STEADY_KB)
		printf("address space steady\n");
	else
		printf("address space grew %ld kB\n", vm_end - vm_start);
	return ret ? 1 : wrong != 0;
}
