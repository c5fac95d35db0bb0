// SPDX-License-Identifier: GPL-2.0
/*
 * held_in_loader PIDFILE PROG [ARGS...]: start PROG and hold it where its
 * dynamic loader first runs the C library's code (an IFUNC resolver, as
 * it relocates the library): the C library mapped, not yet relocated nor
 * started.  PROG is run, then single-stepped, to there, left stopped (SIGSTOP, to go
 * on at SIGCONT), and its pid written to PIDFILE: what `prog & fntrace
 * attach $!` meets when attach comes quickly enough.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#define STEPS_MAX 50000000L

/* The C library's code in pid's maps, once it is mapped. */
static int libc_text(pid_t pid, unsigned long *lo, unsigned long *hi)
{
	char path[64], line[4300], perms[8];
	int found = 0;
	FILE *m;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(m = fopen(path, "r")))
		return 0;
	while (!found && fgets(line, sizeof(line), m))
		found = strstr(line, "/libc.so") &&
			sscanf(line, "%lx-%lx %7s", lo, hi, perms) == 3 && perms[2] == 'x';
	fclose(m);
	return found;
}

static unsigned long pc_of(pid_t pid)
{
	struct user_regs_struct r;

	ptrace(PTRACE_GETREGS, pid, NULL, &r);
#if defined(__x86_64__)
	return r.rip;
#else
#error "held_in_loader: x86_64 only"
#endif
}

/* Run pid from system call to system call until the C library is mapped
 * (the loader's mmap()s), then step it until its pc is in the library's
 * code: 0, or -1 if it never was. */
static int step_to_libc(pid_t pid)
{
	unsigned long lo = 0, hi = 0, pc;
	int status;

	for (long i = 0; i < STEPS_MAX; i++) {
		if (!hi && !libc_text(pid, &lo, &hi) &&
		    (ptrace(PTRACE_SYSCALL, pid, NULL, NULL) || waitpid(pid, &status, 0) != pid ||
		     !WIFSTOPPED(status)))
			return -1;
		if (!hi)
			continue;
		pc = pc_of(pid);
		if (pc >= lo && pc < hi)
			return 0;
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) || waitpid(pid, &status, 0) != pid ||
		    !WIFSTOPPED(status))
			return -1;
	}
	return -1;
}

int main(int argc, char **argv)
{
	FILE *out;
	int status;
	pid_t pid;

	if (argc < 3)
		return 2;
	pid = fork();
	if (pid == 0) {
		/* Orphaned and stopped, its group would get SIGHUP. */
		signal(SIGHUP, SIG_IGN);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execv(argv[2], argv + 2);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || step_to_libc(pid)) {
		fprintf(stderr, "held_in_loader: %s never ran the C library's code\n", argv[2]);
		return 1;
	}
	kill(pid, SIGSTOP);
	ptrace(PTRACE_DETACH, pid, NULL, (void *)(long)SIGSTOP);
	if (!(out = fopen(argv[1], "w")) || fprintf(out, "%d\n", (int)pid) < 0 || fclose(out))
		return 1;
	return 0;
}
