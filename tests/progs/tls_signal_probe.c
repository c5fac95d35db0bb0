// SPDX-License-Identifier: GPL-2.0
/*
 * Does a thread keep its own thread-local storage across its signal
 * handlers?  Under qemu-i386 7.2 it does not: once another thread exists,
 * a handler's return leaves the interrupted thread with the other's TLS
 * (%gs base).  Every TLS access of the program is then another thread's,
 * the runtime's ft_current included, so tests/arch/i386.sh leaves the
 * cases that lean on signals out only where this probe fails.
 * Exits 0 if TLS stayed right through 100 signals, 1 if not.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>

static __thread volatile long mine;
static volatile int signals, stop;

static void on_alarm(int sig)
{
	signals++;
}

static void *other(void *arg)
{
	mine = 2;
	while (!stop)
		;
	return arg;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval tick = { { 0, 1000 }, { 0, 1000 } };
	pthread_t t;
	long wrong = 0;

	mine = 1;
	sigaction(SIGALRM, &sa, NULL);
	pthread_create(&t, NULL, other, NULL);
	setitimer(ITIMER_REAL, &tick, NULL);
	while (signals < 100)
		wrong += mine != 1;
	stop = 1;
	pthread_join(t, NULL);
	return wrong != 0;
}
