/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program that puts itself under a seccomp filter which kills the
 * process on system calls the runtime would make
 * (tests/cases/robust/seccomp.sh).  The filter is a small BPF program of its
 * own: no libseccomp.
 *
 *   seccomp_filter readv N       prctl(PR_SET_SECCOMP): killed on
 *                                process_vm_readv, this thread only;
 *                                greet("before") once before, N times
 *                                greet("after") after
 *   seccomp_filter sysreadv N    the same with syscall(SYS_seccomp), as
 *                                libseccomp's seccomp_load() makes it
 *   seccomp_filter thread STOP   prctl(PR_SET_SECCOMP), this thread
 *                                only: killed on process_vm_readv,
 *                                mprotect, madvise, membarrier; then
 *                                greet("after") every millisecond until
 *                                STOP exists
 *   seccomp_filter tsync STOP    the same filter for every thread:
 *                                seccomp(2) with TSYNC
 *   seccomp_filter crowd STOP    CROWD threads that wait, then one more,
 *                                the newest, puts itself alone under
 *                                seccomp(2), made with the instruction
 *                                itself on x86_64 (no wrapper sees it):
 *                                killed on process_vm_readv; then as
 *                                thread
 *   seccomp_filter strict N      strict mode (read, write and exit
 *                                alone), then greet("after") N times,
 *                                "done" written and the thread's exit
 */
#include "robust.h"

#include <linux/filter.h>
#include <pthread.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

KEEP int greet(const char *who)
{
	sink = strlen(who);
	return (int)sink;
}

/* Kill the process on each of the n system calls, allow the rest. */
static struct sock_fprog *filter_of(const int *nrs, unsigned n)
{
	static struct sock_filter code[32];
	static struct sock_fprog prog;
	unsigned k = 0;

	code[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, nr));
	for (unsigned i = 0; i < n; i++) {
		code[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nrs[i], 0, 1);
		code[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	}
	code[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = k;
	prog.filter = code;
	return &prog;
}

static const int readv_only[] = { SYS_process_vm_readv };
#define CROWD 100

static const int patching[] = { SYS_process_vm_readv, SYS_mprotect, SYS_madvise,
				SYS_membarrier };

/* seccomp(2) past syscall(), as a sandbox's own code makes it. */
static long seccomp_itself(unsigned op, unsigned flags, void *args)
{
#ifdef __x86_64__
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_seccomp), "D"((long)op), "S"((long)flags), "d"(args)
			 : "rcx", "r11", "memory");
	return ret;
#else
	return syscall(SYS_seccomp, op, flags, args);
#endif
}

static int install(const char *mode)
{
	if (!strcmp(mode, "sysreadv"))
		return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0,
				    filter_of(readv_only, 1));
	if (!strcmp(mode, "readv"))
		return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, filter_of(readv_only, 1));
	if (!strcmp(mode, "thread"))
		return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, filter_of(patching, 4));
	if (!strcmp(mode, "crowd"))
		return (int)seccomp_itself(SECCOMP_SET_MODE_FILTER, 0, filter_of(readv_only, 1));
	if (!strcmp(mode, "tsync"))
		return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				    SECCOMP_FILTER_FLAG_TSYNC, filter_of(patching, 4));
	return -1;
}

static void nap_ms(void)
{
	struct timespec ms = { 0, 1000000 };

	nanosleep(&ms, NULL);
}

/* Under strict mode: no stdio (its buffer may want memory), no
 * exit_group. */
static int strict_rounds(int n)
{
	static const char done[] = "done\n";

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT))
		return 2;
	for (int i = 0; i < n; i++)
		greet("after");
	if (write(1, done, sizeof(done) - 1) < 0)
		return 1;
	syscall(SYS_exit, 0);
	return 0;
}

static void *wait_for_ever(void *unused)
{
	for (;;)
		pause();
	return NULL;
}

static void *filtered(void *stop);

/* The filtered thread is the newest: the last a scan of /proc comes to. */
static int crowd(const char *stop)
{
	pthread_t t;

	for (int i = 0; i < CROWD; i++)
		if (pthread_create(&t, NULL, wait_for_ever, NULL))
			return 2;
	if (pthread_create(&t, NULL, filtered, (void *)stop) || pthread_join(t, NULL))
		return 2;
	return 0;
}

static int greet_until(const char *mode, const char *stop)
{
	if (install(mode)) {
		perror("seccomp_filter: filter");
		return 2;
	}
	printf("filtered\n");
	fflush(stdout);
	while (access(stop, F_OK) != 0) {
		greet("after");
		nap_ms();
	}
	printf("done\n");
	return 0;
}

static void *filtered(void *stop)
{
	greet_until("crowd", stop);
	return NULL;
}

int main(int argc, char **argv)
{
	int readv = argc > 2 && (!strcmp(argv[1], "readv") || !strcmp(argv[1], "sysreadv"));
	int n = readv ? atoi(argv[2]) : 0;

	if (argc < 3 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		fprintf(stderr, "usage: seccomp_filter readv|sysreadv|strict N | "
				"thread|tsync|crowd STOPFILE\n");
		return 2;
	}
	greet("before");
	if (!strcmp(argv[1], "strict")) {
		fflush(stdout);
		return strict_rounds(atoi(argv[2]));
	}
	if (!strcmp(argv[1], "crowd"))
		return crowd(argv[2]);
	if (!readv)
		return greet_until(argv[1], argv[2]);
	if (install(argv[1])) {
		perror("seccomp_filter: filter");
		return 2;
	}
	printf("filtered\n");
	fflush(stdout);
	for (int i = 0; i < n; i++)
		greet("after");
	printf("done\n");
	return 0;
}
