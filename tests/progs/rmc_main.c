// SPDX-License-Identifier: GPL-2.0
/*
 * recordmcount test program: static, global and weak functions, one that
 * nothing calls (for --gc-sections), calls into rmc_lib.c.  Every function
 * does work after its calls, so none becomes a tail call.
 */
#include <stdio.h>

#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noipa))
#endif

int lib_sum(int n);
int lib_hook(int x);

static volatile int sink;

KEEP static int square(int x)
{
	sink = x;
	return x * x;
}

KEEP int parse_sum(const char *s)
{
	int r = 0;

	for (; *s; s++)
		if (*s >= '0' && *s <= '9')
			r += square(*s - '0');
	sink = r;
	return r;
}

KEEP __attribute__((weak)) int weak_triple(int x)
{
	sink = x;
	return 3 * x;
}

KEEP int never_called(int x)
{
	sink = x;
	return x + square(x);
}

int main(void)
{
	int a = parse_sum("1 2 3"), b = lib_sum(4), c = lib_hook(1), d = weak_triple(5);

	printf("%d %d %d %d\n", a, b, c, d);
	return 0;
}
