// SPDX-License-Identifier: GPL-2.0
/*
 * Signal handlers that call traced functions while the main code is inside
 * traced frames: SIGUSR1 raised from inside wait_usr1(), then SIGALRM
 * delivered (setitimer) while spin() loops without calls.  With the
 * argument "altstack" both handlers run on a sigaltstack (SA_ONSTACK).
 * The graph is fixed: each handler nests inside the frame it interrupted.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "robust.h"

static volatile sig_atomic_t alarmed;
static volatile long handled;
static char *altstack;
static long on_alt;

KEEP long handler_leaf(long x)
{
	char here;

	/* Is this running on the alternate stack? */
	if (altstack && &here >= altstack && &here < altstack + SIGSTKSZ * 4)
		on_alt++;
	sink = x;
	return x + 1;
}

KEEP long handler_work(long x)
{
	long r = handler_leaf(x) + 1;

	sink = r;
	return r;
}

KEEP void on_usr1(int sig)
{
	handled += handler_work(sig);
}

KEEP void on_alarm(int sig)
{
	handled += handler_work(sig);
	alarmed = 1;
}

KEEP long wait_usr1(long x)
{
	raise(SIGUSR1);
	sink = x;
	return x + 1;
}

KEEP void spin(void)
{
	struct itimerval it = { .it_value = { 0, 20000 } };

	setitimer(ITIMER_REAL, &it, NULL);
	while (!alarmed)
		;
	sink = 1;
}

KEEP long outer(long x)
{
	long r = wait_usr1(x);

	spin();
	sink = r;
	return r;
}

KEEP static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

int main(int argc, char **argv)
{
	int flags = 0;
	long r;

	if (argc > 1 && !strcmp(argv[1], "altstack")) {
		stack_t ss = { .ss_size = SIGSTKSZ * 4 };

		ss.ss_sp = altstack = malloc(ss.ss_size);
		if (!altstack || sigaltstack(&ss, NULL))
			return 1;
		flags = SA_ONSTACK;
	}
	handle(SIGUSR1, on_usr1, flags);
	handle(SIGALRM, on_alarm, flags);
	r = outer(1);
	printf("outer %ld handled %ld on the alternate stack %ld\n", r, handled, on_alt);
	return 0;
}
