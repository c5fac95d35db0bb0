// SPDX-License-Identifier: GPL-2.0
/*
 * exec from inside traced frames: "robust_exec PROG ARGS..." calls
 * before_exec() -> do_exec() which execs PROG ARGS (another traced
 * program, or one without call sites).  Prints its pid first.
 */
#include <stdio.h>
#include <unistd.h>

#include "robust.h"

KEEP long leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP int do_exec(char **argv)
{
	leaf(1);
	execv(argv[0], argv);
	perror(argv[0]);
	sink = 1;
	return 127;
}

KEEP int before_exec(char **argv)
{
	int r = do_exec(argv);

	sink = r;
	return r;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	return before_exec(argv + 1);
}
