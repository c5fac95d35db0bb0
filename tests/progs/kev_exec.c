// SPDX-License-Identifier: GPL-2.0
/*
 * The program kev_fork's child execs (tests/cases/record/kevents_fork.sh):
 * 70 getppid calls in exec_calls(), a 30 ms sleep in exec_nap(); exits 3,
 * the status its parent's wait returns.
 */
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "robust.h"

KEEP void exec_calls(void)
{
	for (int i = 0; i < 70; i++)
		syscall(SYS_getppid);
	sink = 1;
}

KEEP void exec_nap(void)
{
	struct timespec t = { 0, 30 * 1000000L };

	while (nanosleep(&t, &t))
		;
	sink = 2;
}

int main(void)
{
	exec_calls();
	exec_nap();
	return 3;
}
