// SPDX-License-Identifier: GPL-2.0
/*
 * lifetime.c's linked library: its constructor and destructor each call a
 * function.  The constructor's first traceable call passes floating-point
 * arguments: in a -pg build that call starts the runtime, which must keep
 * them (if not, the stage is not written, and the test counts one less).
 */
#include <string.h>
#include <unistd.h>

static void stage(const char *name)
{
	if (write(STDOUT_FILENO, name, strlen(name)) < 0 || write(STDOUT_FILENO, "\n", 1) < 0)
		_exit(3);
}

__attribute__((noinline)) void in_lib_ctor(void) { stage("in_lib_ctor"); }
__attribute__((noinline)) void in_lib_work(void) { stage("in_lib_work"); }
__attribute__((noinline)) void in_lib_dtor(void) { stage("in_lib_dtor"); }

void lib_work(void)
{
	in_lib_work();
}

__attribute__((noinline)) double scaled(double x, double by)
{
	return x * by;
}

__attribute__((constructor, no_instrument_function)) static void lib_ctor(void)
{
	if (scaled(2.5, 4.0) == 10.0)
		in_lib_ctor();
}
__attribute__((destructor)) static void lib_dtor(void) { in_lib_dtor(); }
