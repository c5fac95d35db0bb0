// SPDX-License-Identifier: GPL-2.0
/*
 * Unwinding through a detour whose moved instructions end with a call
 * (docs/design.md "Detours in the running process"): catch_one,
 * cleanup_one, trace_one and cancel_one each begin "sub $8,%rsp; call X",
 * so that the call is the last of the bytes its entry's jump replaces,
 * and the callee returns, or unwinds, into the stub (the test checks the
 * shape).  Built with plain -O2.
 *
 *   thrown N     catch_one(i) for i < N, its callee throwing for odd i,
 *                caught in main; cleanup_one(i) the same with a
 *                destructor in its own frame
 *   trace        the frames of the program backtrace() sees from a
 *                callee of trace_one: their offsets in the program,
 *                one a line ("bt OFFSET")
 *   cancel       a thread blocked in read() inside cancel_one's callee
 *                is cancelled: the destructor in cancel_one's frame and
 *                the thread's cleanup handler run
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdexcept>
#include <unistd.h>

#define NOIPA __attribute__((noipa))

static int destroyed, cleaned;

struct guard {
	int id;
	~guard() { destroyed += id; }
};

NOIPA int throw_odd(int x)
{
	if (x & 1)
		throw std::runtime_error("odd");
	return x * 3;
}

/* sub $8,%rsp; call throw_odd */
NOIPA int catch_one(int x)
{
	return throw_odd(x) + 1;
}

/* The guard's destructor is the landing pad's: sub; call throw_odd. */
NOIPA int cleanup_one(int x)
{
	guard g = { 1 };

	return throw_odd(x) + 2;
}

static void thrown(int n)
{
	long sum = 0, caught = 0;

	for (int i = 0; i < n; i++) {
		try {
			sum += catch_one(i);
		} catch (const std::runtime_error &) {
			caught++;
		}
		try {
			sum += cleanup_one(i);
		} catch (const std::runtime_error &) {
			caught++;
		}
	}
	printf("sum %ld caught %ld destroyed %d\n", sum, caught, destroyed);
}

NOIPA int show_stack(int x)
{
	void *pc[32];
	int n = backtrace(pc, 32);
	Dl_info self, at;

	dladdr((void *)show_stack, &self);
	for (int i = 0; i < n; i++)
		if (dladdr(pc[i], &at) && at.dli_fbase == self.dli_fbase)
			printf("bt %lx\n", (unsigned long)((char *)pc[i] - (char *)self.dli_fbase - (i > 0)));
	return x + 1;
}

/* sub $8,%rsp; call show_stack */
NOIPA int trace_one(int x)
{
	return show_stack(x) * 2;
}

NOIPA int blocks(int fd)
{
	char c;

	return (int)read(fd, &c, 1);
}

/* A guard in its frame; call blocks, the last instruction replaced. */
NOIPA int cancel_one(int fd)
{
	guard g = { 10 };

	return blocks(fd) + 3;
}

static void cleanup(void *)
{
	cleaned++;
}

static void *canceled(void *arg)
{
	int r;

	pthread_cleanup_push(cleanup, NULL);
	r = cancel_one(*(int *)arg);
	pthread_cleanup_pop(0);
	return (void *)(long)r;
}

static void cancel(void)
{
	int fds[2];
	pthread_t t;
	void *ret;

	if (pipe(fds) || pthread_create(&t, NULL, canceled, &fds[0]))
		exit(1);
	usleep(100000);
	pthread_cancel(t);
	pthread_join(t, &ret);
	printf("canceled %d destroyed %d cleaned %d\n", ret == PTHREAD_CANCELED, destroyed, cleaned);
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "thrown"))
		thrown(atoi(argv[2]));
	else if (argc > 1 && !strcmp(argv[1], "trace"))
		printf("trace %d\n", trace_one(4));
	else if (argc > 1 && !strcmp(argv[1], "cancel"))
		cancel();
	else
		return 2;
	return 0;
}
