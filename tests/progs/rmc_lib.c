// SPDX-License-Identifier: GPL-2.0
/*
 * recordmcount test library (linked as a shared object, and a fuzz seed):
 * a static, a global, a weak and an unused function.  No libc call, so it
 * also links into a program without a C library.
 */
#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noipa))
#endif

static volatile int sink;

KEEP static int lib_twice(int x)
{
	sink = x;
	return 2 * x;
}

KEEP int lib_sum(int n)
{
	int r = 0;

	for (int i = 1; i <= n; i++)
		r += lib_twice(i);
	sink = r;
	return r;
}

/* A weak definition: entries must not be based on its symbol. */
KEEP __attribute__((weak)) int lib_hook(int x)
{
	sink = x;
	return x + 100;
}

/* Called by nobody: --gc-sections drops it, and its entry with it. */
KEEP int lib_unused(int x)
{
	sink = x;
	return x - 1;
}
