// SPDX-License-Identifier: GPL-2.0
/* lifetime.c's dlopen()ed library: its constructor and destructor each call a function. */
#include <string.h>
#include <unistd.h>

static void stage(const char *name)
{
	if (write(STDOUT_FILENO, name, strlen(name)) < 0 || write(STDOUT_FILENO, "\n", 1) < 0)
		_exit(3);
}

__attribute__((noinline)) void in_dl_ctor(void) { stage("in_dl_ctor"); }
__attribute__((noinline)) void in_dl_work(void) { stage("in_dl_work"); }
__attribute__((noinline)) void in_dl_dtor(void) { stage("in_dl_dtor"); }

void dl_work(void)
{
	in_dl_work();
}

__attribute__((constructor)) static void dl_ctor(void) { in_dl_ctor(); }
__attribute__((destructor)) static void dl_dtor(void) { in_dl_dtor(); }
