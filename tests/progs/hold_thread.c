// SPDX-License-Identifier: GPL-2.0
/*
 * Holds one thread of another process for a while, the others running
 * on: ptrace stops that thread alone (PTRACE_INTERRUPT), as a thousand
 * busy threads keep a process's control thread from the CPUs.  Prints
 * "held" once it is, and lets it go after SECONDS.
 *
 *   hold_thread TID SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	pid_t tid;
	int status;

	if (argc != 3 || (tid = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: hold_thread TID SECONDS\n");
		return 2;
	}
	if (ptrace(PTRACE_SEIZE, tid, 0, 0) || ptrace(PTRACE_INTERRUPT, tid, 0, 0) ||
	    waitpid(tid, &status, __WALL) != tid) {
		perror("hold_thread");
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	sleep(atoi(argv[2]));
	return ptrace(PTRACE_DETACH, tid, 0, 0) ? 1 : 0;
}
