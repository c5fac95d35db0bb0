// SPDX-License-Identifier: GPL-2.0
/* For N seconds (default 3): outer() calls inner(), sleeps 300 ms and
 * calls inner() again.  A reader of trace_pipe sees outer() open across
 * the pauses in the stream. */
#include <stdlib.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noipa)) void inner(int x)
{
	sink = x;
}

__attribute__((noipa)) void outer(int x)
{
	inner(x);
	usleep(300000);
	inner(x + 1);
}

int main(int argc, char **argv)
{
	int n = (argc > 1 ? atoi(argv[1]) : 3) * 3;

	for (int i = 0; i < n; i++)
		outer(i);
	return 0;
}
