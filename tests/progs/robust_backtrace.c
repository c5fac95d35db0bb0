// SPDX-License-Identifier: GPL-2.0
/*
 * backtrace() (execinfo.h) called three traced frames deep: the addresses
 * it returns must be the real return addresses, so each one is looked up
 * with dladdr (the program is linked with -rdynamic, so that the
 * program's own functions have names there).  Prints the names of the
 * frames up to main, how many addresses are in libfntrace.so, and whether
 * backtrace_symbols() shows return_to_handler anywhere.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robust.h"

KEEP int bt_inner(long x)
{
	void *addr[64];
	int n = backtrace(addr, 64), in_rt = 0, trampolines = 0, found_main = 0;
	char **syms = backtrace_symbols(addr, n);

	printf("frames:");
	for (int i = 0; i < n; i++) {
		Dl_info info;

		if (!dladdr(addr[i], &info))
			continue;
		if (info.dli_fname && strstr(info.dli_fname, "libfntrace"))
			in_rt++;
		if (!found_main && info.dli_sname &&
		    (!strncmp(info.dli_sname, "bt_", 3) || !strcmp(info.dli_sname, "main")))
			printf(" %s", info.dli_sname);
		if (info.dli_sname && !strcmp(info.dli_sname, "main"))
			found_main = 1;
		if (syms && strstr(syms[i], "return_to_handler"))
			trampolines++;
	}
	printf("\nin libfntrace.so: %d\nreturn_to_handler: %d\n", in_rt, trampolines);
	free(syms);
	sink = x;
	return n;
}

KEEP int bt_middle(long x)
{
	int r = bt_inner(x + 1);

	sink = r;
	return r;
}

KEEP int bt_outer(long x)
{
	int r = bt_middle(x + 1);

	sink = r;
	return r;
}

int main(void)
{
	int n = bt_outer(1);

	return n > 0 ? 0 : 1;
}
