// SPDX-License-Identifier: GPL-2.0
/*
 * A program for fntrace cc -static (tests/cases/cc/static.sh), whose calls
 * are counted: THREADS threads call work() ROUNDS times each; main calls
 * leaf() 10 times, a SIGUSR1 handler calls in_handler() once, a longjmp
 * out of deep() lands once in landed(), and a forked child calls
 * in_child() once.  On its way it uses the functions the runtime wraps
 * (sigaction, sigprocmask, dup2, close, longjmp, fork's handlers), so
 * that they are gone through dormant and woken.  Prints a sum that is the
 * same either way.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREADS 3
#define ROUNDS 1000

static jmp_buf back;
static volatile long handled;

__attribute__((noinline)) long work(long i) { return i % 7; }
__attribute__((noinline)) long leaf(long i) { return i * 2; }
__attribute__((noinline)) void in_handler(void) { handled++; }
__attribute__((noinline)) long landed(void) { return 100; }
__attribute__((noinline)) int in_child(void) { return 3; }

__attribute__((noinline)) void deep(int n)
{
	if (n == 0)
		longjmp(back, 1);
	deep(n - 1);
}

static void *thread_main(void *arg)
{
	long sum = 0;

	for (long i = 0; i < ROUNDS; i++)
		sum += work(i);
	return (void *)sum;
}

static void on_usr1(int sig)
{
	in_handler();
}

static long threads(void)
{
	pthread_t t[THREADS];
	long sum = 0;

	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, thread_main, NULL);
	for (int i = 0; i < THREADS; i++) {
		void *r;

		pthread_join(t[i], &r);
		sum += (long)r;
	}
	return sum;
}

static long signals(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaction(SIGUSR1, &sa, NULL);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	return handled;
}

static long child(void)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0)
		_exit(in_child());
	waitpid(pid, &status, 0);
	return WEXITSTATUS(status);
}

int main(void)
{
	long sum = 0;
	int fd = dup(1);

	for (long i = 0; i < 10; i++)
		sum += leaf(i);
	/* The signal before the threads: on i386 under qemu-i386, a signal
	 * after a thread has come and gone kills a traced program, static
	 * or not (a bug of its own). */
	sum += signals();
	sum += threads();
	sum += child();
	if (!setjmp(back))
		deep(5);
	else
		sum += landed();
	dup2(fd, 1);
	close(fd);
	printf("%ld\n", sum);
	return 0;
}
