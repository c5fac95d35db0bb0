// SPDX-License-Identifier: GPL-2.0
/*
 * N getppid calls (default 1 000 000) as fast as they go, in one
 * function: more system calls than a CPU's ring of kernel events holds
 * between two of the recorder's reads (record -e), so that some are
 * lost, and counted.
 */
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "robust.h"

KEEP void storm(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

int main(int argc, char **argv)
{
	storm(argc > 1 ? atol(argv[1]) : 1000000);
	return 0;
}
