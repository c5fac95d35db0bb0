// SPDX-License-Identifier: GPL-2.0
/* lifetime.c's C++ static object: constructed before main, destroyed at exit. */
#include <string.h>
#include <unistd.h>

extern "C" void in_static_ctor(void);
extern "C" void in_static_dtor(void);

static void stage(const char *name)
{
	if (write(STDOUT_FILENO, name, strlen(name)) < 0 || write(STDOUT_FILENO, "\n", 1) < 0)
		_exit(3);
}

__attribute__((noinline)) void in_static_ctor(void) { stage("in_static_ctor"); }
__attribute__((noinline)) void in_static_dtor(void) { stage("in_static_dtor"); }

namespace {
struct lifetime_object {
	lifetime_object() { in_static_ctor(); }
	~lifetime_object() { in_static_dtor(); }
};
lifetime_object the_object;
}
