// SPDX-License-Identifier: GPL-2.0
/*
 * fork and exec while another thread patches.  A switcher
 * thread flips the tracer between every tracer through the runtime's
 * fntrace_ctl_write(), as fast as it can, while main
 *
 *   fork ROUNDS   forks ROUNDS children, each of which loads a library,
 *                 runs a traced computation, checks it and exits with
 *                 the result; the parent checks every child's status
 *   exec PROG...  lets the switcher run a moment, then execs PROG
 *
 * so that fork and exec land in the middle of batches.  Prints the
 * children that went wrong (0); exec prints nothing of its own.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "robust.h"

typedef int (*ctl_write_fn)(const char *file, const char *value, int append,
			    char *err, size_t errlen);

static atomic_int done;
static atomic_long flips;

KEEP static long leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP static long work(long n)
{
	long sum = 0;

	for (long i = 0; i < n; i++)
		sum += leaf(i);
	sink = sum;
	return sum;
}

static void *switcher(void *arg)
{
	static const char *const tracers[] = { "function_graph", "nop", "function" };
	ctl_write_fn write = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");
	char err[256];

	for (long r = 0; write && !atomic_load(&done); r++) {
		write("current_tracer", tracers[r % 3], 0, err, sizeof(err));
		atomic_fetch_add(&flips, 1);
	}
	return NULL;
}

/* The child's computation, right or wrong, and a library loaded (the
 * runtime takes its lock for that): its exit status. */
static int child(void)
{
	void *h = dlopen("libm.so.6", RTLD_NOW);

	if (!h || dlclose(h))
		return 2;
	return work(1000) == 1000L * 1001 / 2 ? 0 : 1;
}

static int fork_rounds(long rounds)
{
	long wrong = 0;

	for (long i = 0; i < rounds; i++) {
		pid_t pid = fork();
		int status;

		if (pid == 0)
			_exit(child());
		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			wrong++;
		work(10);
	}
	printf("forks %ld wrong %ld\n", rounds, wrong);
	return wrong != 0;
}

/* Once the switcher has flipped a while. */
static int exec_soon(char **argv)
{
	while (atomic_load(&flips) < 50)
		work(10);
	execv(argv[0], argv);
	perror(argv[0]);
	return 127;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int ret;

	if (argc < 3)
		return 2;
	pthread_create(&t, NULL, switcher, NULL);
	if (!strcmp(argv[1], "fork"))
		ret = fork_rounds(atol(argv[2]));
	else
		ret = exec_soon(argv + 2);
	atomic_store(&done, 1);
	pthread_join(t, NULL);
	return ret;
}
