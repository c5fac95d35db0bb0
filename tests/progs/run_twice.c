// SPDX-License-Identifier: GPL-2.0
/* Runs PROG twice, one child after the other (fork, then execv in the
 * child), and exits with the last one's status: a traced program that
 * starts others (tests/cases/cc/static.sh). */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int once(char **argv)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: run_twice PROG [ARGS...]\n");
		return 2;
	}
	return once(argv + 1) | once(argv + 1);
}
