// SPDX-License-Identifier: GPL-2.0
/* Calls work() every 10 ms until SIGTERM, SIGHUP or SIGINT, then says how many
 * of them it got and how many calls it made: a program that ends
 * cleanly when told to, for the recorder's signal handling. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_signal(int sig)
{
	got++;
}

__attribute__((noinline)) int work(int i)
{
	return i * 3 + 1;
}

int main(void)
{
	struct sigaction sa;
	long calls = 0, sum = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	printf("ready\n");
	fflush(stdout);
	while (!got) {
		sum += work(calls++);
		usleep(10000);
	}
	usleep(100000);		/* a second signal would be counted now */
	printf("signals %d calls %ld\n", (int)got, calls);
	return sum == 0;
}
