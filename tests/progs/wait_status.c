/*
 * wait_status PROG [ARG...]: run PROG and print how it ended as a data
 * directory's info says it ("status N", or "signal N SIGNAME" with
 * " (core dumped)" if the kernel says so): the untraced run's end, to
 * compare with a recording's (tests/cases/record/crash_snapshot.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	if (argc < 2)
		return 2;
	pid = fork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "wait_status: cannot run %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	if (WIFEXITED(status))
		fprintf(stderr, "status %d\n", WEXITSTATUS(status));
	else
		fprintf(stderr, "signal %d SIG%s%s\n", WTERMSIG(status), sigabbrev_np(WTERMSIG(status)),
			WCOREDUMP(status) ? " (core dumped)" : "");
	return 0;
}
