// SPDX-License-Identifier: GPL-2.0
/*
 * A program that changes who it is, or where its root is, and then goes
 * on making processes and calls (tests/cases/robust/privs.sh):
 *
 *   privs CHANGE fork [SECONDS]  fork a child that calls child_work(),
 *                              then mid() in a loop for SECONDS
 *   privs CHANGE exec PROG...  exec PROG (after the change)
 *   privs CHANGE spin SECONDS  call mid() in a loop for SECONDS
 *
 * CHANGE is one of
 *   setuid      become nobody (65534): groups, gid, then uid
 *   squat+setuid  first put a socket of its own under the number of the
 *               recorder's file service fd, then become nobody; fork
 *               then says "stray packets N", what reached that socket
 *   chroot:DIR  chroot into DIR
 *   pivot:DIR   pivot_root into DIR, in a mount namespace of its own
 *   none        stay as it is
 *
 * "changed" is printed once the change is made, then for fork
 * "child PID" and, once it has ended, "status N" (3 if all went well).
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "robust.h"

KEEP long leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP long child_work(long x)
{
	long r = leaf(x) + leaf(x + 1);

	sink = r;
	return r;
}

KEEP long mid(long x)
{
	long r = leaf(x);

	sink = r;
	return r;
}

static int become_nobody(void)
{
	return setgroups(0, NULL) || setgid(65534) || setuid(65534) ? -1 : 0;
}

static int into_chroot(const char *dir)
{
	return chroot(dir) || chdir("/") ? -1 : 0;
}

/* DIR becomes / of a mount namespace of our own; the old root is let go. */
static int into_pivot(const char *dir)
{
	char old[4096];

	snprintf(old, sizeof(old), "%s/old", dir);
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount(dir, dir, NULL, MS_BIND, NULL) || (mkdir(old, 0700) && access(old, F_OK)))
		return -1;
	if (syscall(SYS_pivot_root, dir, old) || chdir("/"))
		return -1;
	return umount2("/old", MNT_DETACH);
}

/*
 * A program that closes what it does not know and opens its own under
 * the same number: the recorder's file service fd (FNTRACE_FILES_FD)
 * becomes one end of a socket pair of ours, whose other end is kept to
 * count what arrives there (nothing may).
 */
static int squatted = -1;

static int squat_service_fd(void)
{
	const char *env = getenv("FNTRACE_FILES_FD");
	int pair[2];

	if (!env || socketpair(AF_UNIX, SOCK_SEQPACKET, 0, pair))
		return -1;
	if (dup2(pair[0], atoi(env)) < 0)
		return -1;
	close(pair[0]);
	squatted = pair[1];
	return 0;
}

static void say_stray_packets(void)
{
	char buf[256];
	int n = 0;

	while (squatted >= 0 && recv(squatted, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		n++;
	if (squatted >= 0)
		printf("stray packets %d\n", n);
}

static int change(const char *how)
{
	if (!strcmp(how, "setuid"))
		return become_nobody();
	if (!strcmp(how, "squat+setuid"))
		return squat_service_fd() || become_nobody() ? -1 : 0;
	if (!strncmp(how, "chroot:", 7))
		return into_chroot(how + 7);
	if (!strncmp(how, "pivot:", 6))
		return into_pivot(how + 6);
	return strcmp(how, "none") ? -1 : 0;
}

KEEP int spin(double seconds)
{
	struct timespec start, now, nap = { 0, 1000000 };

	if (seconds <= 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		sink = mid(1);
		nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
	return 0;
}

/* The child works, then spins for seconds (0: ends at once). */
KEEP int split(double seconds)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(child_work(1) == 5 && spin(seconds) == 0 ? 3 : 1);
	printf("child %d\n", (int)pid);
	fflush(stdout);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	say_stray_packets();
	printf("status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: privs CHANGE fork [SECONDS]|exec PROG...|spin SECONDS\n");
		return 2;
	}
	if (change(argv[1])) {
		perror(argv[1]);
		return 2;
	}
	printf("changed\n");
	fflush(stdout);
	if (!strcmp(argv[2], "fork"))
		return split(argc > 3 ? atof(argv[3]) : 0);
	if (!strcmp(argv[2], "exec") && argc > 3) {
		execv(argv[3], argv + 3);
		perror(argv[3]);
		return 2;
	}
	if (!strcmp(argv[2], "spin") && argc > 3)
		return spin(atof(argv[3]));
	return 2;
}
