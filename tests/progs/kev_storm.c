// SPDX-License-Identifier: GPL-2.0
/*
 * N getppid calls (default 1 000 000) as fast as they go, in one
 * function: more system calls than a CPU's ring of kernel events holds
 * between two of the recorder's reads (record -e), so that some are
 * lost, and counted; or, under record --overwrite -e, more than the
 * recorder's memory of them holds.  With a second argument, `hwm`, the
 * recorder's (the parent's) peak memory is printed before and after
 * ("hwm_kb BEFORE AFTER"), so that a test can hold it bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "robust.h"

KEEP void storm(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* The parent's VmHWM, in kB; -1 if /proc does not say. */
static long parent_hwm_kb(void)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)getppid());
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, before;

	if (argc < 3 || strcmp(argv[2], "hwm")) {
		storm(n);
		return 0;
	}
	storm(1000);
	before = parent_hwm_kb();
	storm(n);
	printf("hwm_kb %ld %ld\n", before, parent_hwm_kb());
	return 0;
}
