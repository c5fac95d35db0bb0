// SPDX-License-Identifier: GPL-2.0
/*
 * Calls mid() -> leaf() every 20 ms for N seconds while a second thread
 * spends its life in vfork(), each child sleeping 300 ms: a thread that
 * answers a sync signal only when its child is done, so that a sync by
 * signals waits long enough to be caught by a SIGSTOP.  With a second
 * argument HOLD, it runs on while that file exists: a loaded machine may
 * take longer than N seconds over the checks made meanwhile.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spin.h"

static void *vforker(void *arg)
{
	for (;;) {
		pid_t child = vfork();

		if (child == 0) {
			usleep(300000);
			_exit(0);
		}
		waitpid(child, NULL, 0);
	}
	return arg;
}

int main(int argc, char **argv)
{
	/* Until a time, not a count of sleeps: sync signals cut them short. */
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 5);
	const char *hold = argc > 2 ? argv[2] : NULL;
	pthread_t thread;

	pthread_create(&thread, NULL, vforker, NULL);
	for (int i = 0; time(NULL) < end || (hold && access(hold, F_OK) == 0); i++) {
		mid(i);
		usleep(20000);
	}
	printf("done\n");
	return 0;
}
