// SPDX-License-Identifier: GPL-2.0
/*
 * vfork(): the child makes traced calls before _exit(), on its parent's
 * memory and stack, while the parent waits; the parent makes its own
 * calls after.  Each side's graph must be its own.  Then a child that
 * execs (this program again, which ends at once).  Prints what both saw.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "robust.h"

static long seen;

KEEP void in_child(long x)
{
	seen += x;
	sink = x;
}

KEEP void child_work(void)
{
	in_child(1);
	in_child(2);
	sink = 0;
}

KEEP void after(long x)
{
	seen += x;
	sink = x;
}

/* The child's writes land in its parent's memory: seen is 3 after. */
KEEP int spawn(char *const argv[])
{
	int status = -1;
	pid_t pid = vfork();

	if (pid == 0) {
		child_work();
		if (argv)
			execv(argv[0], argv);
		_exit(7);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	after(10);
	return WEXITSTATUS(status);
}

/* argv[1] "exec": the image the second child execs, which ends at once. */
int main(int argc, char **argv)
{
	char *again[] = { argv[0], "exec", NULL };
	int first, second;

	if (argc > 1)
		return 0;
	first = spawn(NULL);
	second = spawn(again);

	printf("vfork %d %d seen %ld\n", first, second, seen);
	return 0;
}
