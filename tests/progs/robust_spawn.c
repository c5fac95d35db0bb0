// SPDX-License-Identifier: GPL-2.0
/*
 * vfork() + exec of /bin/true, and posix_spawn() of /bin/true, each from
 * inside traced frames; the parent calls traced functions around them.
 * Prints the exit statuses it got.
 */
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "robust.h"

extern char **environ;

KEEP long leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP int by_vfork(const char *path)
{
	char *argv[] = { (char *)path, NULL };
	int status;
	pid_t pid;

	leaf(1);
	pid = vfork();
	if (pid == 0) {
		execve(path, argv, environ);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	sink = status;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

KEEP int by_spawn(const char *path)
{
	char *argv[] = { (char *)path, NULL };
	int status;
	pid_t pid;

	leaf(2);
	if (posix_spawn(&pid, path, NULL, NULL, argv, environ))
		return -1;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	sink = status;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
	int a = by_vfork("/bin/true");
	int b = by_vfork("/bin/false");
	int c = by_spawn("/bin/true");
	int d = by_spawn("/bin/false");

	printf("vfork %d %d spawn %d %d\n", a, b, c, d);
	leaf(3);
	return 0;
}
