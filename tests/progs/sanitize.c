// SPDX-License-Identifier: GPL-2.0
/*
 * Built with a sanitizer by tests/cases/tools/sanitizers.sh: a few traced calls,
 * then what the first argument names, something the sanitizer catches or
 * nothing at all.
 *
 *   clean        nothing wrong
 *   overflow     a heap read past a block (ASan)
 *   leak         a block whose last pointer is dropped (LSan)
 *   race         two threads write a global unguarded (TSan)
 *   ub           a signed overflow (UBSan)
 *   hold FILE M  calls step() every 10 ms while FILE exists, then does M
 *   joined FILE M  the same, in a thread the main thread waits for in
 *                pthread_join()
 *   busy FILE M  hold, while four threads call spin() with no call into
 *                the sanitizer's interceptors between, until it ends
 *   line M       reads a line from its input first (a thread that sits
 *                in TSan's interceptor), prints it, then does M
 *   exec M       execs itself with M; spawn M: through posix_spawn;
 *                system M: through system(); vfork M: vfork and exec
 *   sh CMD       execs sh -c CMD
 *   options      prints ASAN_OPTIONS as it has it (an exec of a -pg
 *                build may meet gprof's SIGPROF before its handler)
 *
 * Each prints a line before the sanitizer may speak, and one after.
 */
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Out of line, so that each keeps its call site (clang has no noipa). */
#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noipa))
#endif

extern char **environ;
static volatile long sink;

static int counter;

KEEP int step(int i)
{
	sink = i;
	return 2 * i + 1;
}

KEEP int steps(int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		sum += step(i);
	sink = sum;
	return sum;
}

KEEP int read_at(const int *p, int i)
{
	sink = i;
	return p[i];
}

KEEP char *make(int n)
{
	char *p = malloc(n);

	memset(p, 'x', n - 1);
	p[n - 1] = '\0';
	sink = n;
	return p;
}

KEEP void *bump(void *arg)
{
	for (int i = 0; i < 1000; i++)
		counter++;
	return arg;
}

/* The threads' start, a frame below bump() in TSan's report. */
KEEP void *racer(void *arg)
{
	return bump(arg);
}

KEEP int add(int a, int b)
{
	sink = a;
	return a + b;
}

static int overflow(int argc)
{
	int *p = malloc(4 * sizeof(int));

	for (int i = 0; i < 4; i++)
		p[i] = i;
	printf("read %d\n", read_at(p, 3 + argc / 2));
	free(p);
	return 0;
}

static int leak(void)
{
	char *kept = make(10), *lost = make(100);

	printf("made %zu and %zu\n", strlen(kept), strlen(lost));
	lost = NULL;
	sink = (long)kept;
	return 0;
}

static int race(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, racer, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("bumped\n");
	return 0;
}

static int hold(const char *file)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };

	while (access(file, F_OK) == 0) {
		steps(2);
		nanosleep(&nap, NULL);
	}
	return 0;
}

/* One write of the thread's own: TSan's entry hook, and its check of a
 * write, on every call. */
KEEP int spin(volatile int *mine)
{
	*mine += 1;
	return 1;
}

static atomic_int stop_busy;

static KEEP void *busy_thread(void *arg)
{
	volatile int mine = 0;

	while (!atomic_load_explicit(&stop_busy, memory_order_acquire))
		spin(&mine);
	return arg;
}

static KEEP int busy(const char *file)
{
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, busy_thread, NULL);
	hold(file);
	atomic_store_explicit(&stop_busy, 1, memory_order_release);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}

static KEEP void *hold_thread(void *file)
{
	hold(file);
	return NULL;
}

static KEEP int joined(char *file)
{
	pthread_t t;

	return pthread_create(&t, NULL, hold_thread, file) || pthread_join(t, NULL);
}

static KEEP void line(void)
{
	char buf[256];

	if (fgets(buf, sizeof(buf), stdin))
		printf("read %s", buf);
}

/* The program again, doing mode, started as how says. */
static int again(const char *self, const char *how, char *mode)
{
	char *argv[] = { (char *)self, mode, NULL }, cmd[4200];
	pid_t pid;
	int status;

	fflush(stdout);
	if (!strcmp(how, "exec")) {
		execv(self, argv);
		return 127;
	}
	if (!strcmp(how, "system")) {
		snprintf(cmd, sizeof(cmd), "%s %s", self, mode);
		status = system(cmd);
	} else if (!strcmp(how, "vfork")) {
		pid = vfork();
		if (pid == 0) {
			execv(self, argv);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			return 127;
	} else if (posix_spawn(&pid, self, NULL, NULL, argv, environ) ||
		   waitpid(pid, &status, 0) != pid) {
		return 127;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "clean";

	printf("%s: sum %d\n", mode, steps(3));
	fflush(stdout);
	if (!strcmp(mode, "hold") && argc > 3) {
		hold(argv[2]);
		mode = argv[3];
	} else if (!strcmp(mode, "busy") && argc > 3) {
		busy(argv[2]);
		mode = argv[3];
	} else if (!strcmp(mode, "joined") && argc > 3) {
		joined(argv[2]);
		mode = argv[3];
	} else if (!strcmp(mode, "line") && argc > 2) {
		line();
		mode = argv[2];
	}
	if (!strcmp(mode, "overflow"))
		overflow(argc);
	else if (!strcmp(mode, "leak"))
		leak();
	else if (!strcmp(mode, "race"))
		race();
	else if (!strcmp(mode, "ub"))
		printf("sum %d\n", add(INT_MAX, argc));
	else if (argc > 2 && (!strcmp(mode, "exec") || !strcmp(mode, "spawn") ||
			      !strcmp(mode, "system") || !strcmp(mode, "vfork")))
		return again(argv[0], mode, argv[2]);
	else if (!strcmp(mode, "options"))
		printf("%s\n", getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "");
	else if (argc > 2 && !strcmp(mode, "sh"))
		execl("/bin/sh", "sh", "-c", argv[2], (char *)NULL);
	printf("%s: done\n", mode);
	return 0;
}
