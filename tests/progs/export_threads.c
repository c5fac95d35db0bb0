// SPDX-License-Identifier: GPL-2.0
/*
 * A small program for the export tests: three threads and main, each
 * nesting and recursing (fib), writing a trace_marker whose text has
 * quotes, control characters, UTF-8 and bytes that are not UTF-8, and
 * leaving two frames by longjmp (unwound).  Prints a checksum.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>

#define NOIPA __attribute__((noipa))

typedef int (*ctl_write_fn)(const char *file, const char *value, int append,
			    char *err, size_t errlen);

/* Through the runtime's own control files, found at run time so that the
 * program also runs without fntrace. */
NOIPA static void mark(const char *text)
{
	ctl_write_fn write = (ctl_write_fn)dlsym(RTLD_DEFAULT, "fntrace_ctl_write");
	char err[128];

	if (write)
		write("trace_marker", text, 0, err, sizeof(err));
}

NOIPA int leaf(int x)
{
	return x * 3 + 1;
}

NOIPA int fib(int n)
{
	return n < 2 ? leaf(n) : fib(n - 1) + fib(n - 2);
}

NOIPA static void deep_jump(jmp_buf *env, int n)
{
	if (n == 0)
		longjmp(*env, 1);
	deep_jump(env, n - 1);
}

NOIPA int jumper(void)
{
	jmp_buf env;

	if (setjmp(env))
		return 7;
	deep_jump(&env, 1);
	return 0;
}

NOIPA int work(int n)
{
	mark("work \"quoted\"\n\ttab \xc3\xa9 \xff\xfe bad \\ end");
	return fib(n) + leaf(n) + jumper();
}

NOIPA static void *worker(void *arg)
{
	return (void *)(long)work((int)(long)arg);
}

int main(void)
{
	pthread_t t[3];
	long sum = 0;
	void *r;

	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)(5 + i));
	for (int i = 0; i < 3; i++) {
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	sum += work(4);
	printf("%ld\n", sum);
	return 0;
}
