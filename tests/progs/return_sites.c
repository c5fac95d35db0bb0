// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/cases/trace/return_sites.sh: where a traced function returns to,
 * as the function itself sees it (its return address, named by dladdr:
 * the program's own file, or libfntrace.so if the tracer took it), and
 * tail calls into a traced function and into libc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "robust.h"

KEEP const char *return_module(void)
{
	Dl_info info;
	const char *slash;

	if (!dladdr(__builtin_return_address(0), &info) || !info.dli_fname)
		return "?";
	slash = strrchr(info.dli_fname, '/');
	return slash ? slash + 1 : info.dli_fname;
}

KEEP int leaf(int x)
{
	sink = x;
	return x * 3;
}

/* Tail calls: into a traced function, and into libc's puts. */
KEEP int jumps_to_leaf(int x)
{
	return leaf(x + 1);
}

KEEP int jumps_to_puts(const char *s)
{
	return puts(s);
}

KEEP int work(int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		sum += jumps_to_leaf(i) + leaf(i);
	sink = sum;
	return sum;
}

int main(void)
{
	const char *where = return_module();
	int sum = work(3);

	jumps_to_puts("said");
	printf("%s %d\n", where, sum);
	return 0;
}
