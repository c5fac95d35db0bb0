// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace run --dump-on-oops=DIR: the kernel's ftrace_dump_on_oops for a
 * program run becomes.  run execs the program, so that it keeps run's pid,
 * and no process of ours stays behind: nobody would hold the ring once
 * the program died.  So before the exec, run makes the ring (the
 * process's own buffer, which overwrites, as under run it always does)
 * and starts a keeper that holds it:
 *
 *  - The keeper is not the program's child: run forks a child that forks
 *    the keeper and exits at once, and reaps that child before the exec,
 *    so no process of ours appears in the program's wait(); a SIGCHLD
 *    the child's end left pending is taken back.
 *  - It learns of the program's end from a pidfd of run itself, opened
 *    before the forks, and of a crash from the stamp in the ring's header
 *    (../common/crash.h), on which a thread of it sleeps (flight_crash.c).
 *  - It leaves the program's session and working directory, and keeps no
 *    descriptor of the program's but stderr (its one line is the user's):
 *    nothing of the program's is held open or waited on by it.
 *  - A program that ends well leaves nothing: the keeper ends with it.
 *    One that crashes, or a child of it that does, leaves DIR/snapshot.N
 *    (report, info and export read it), reason crash, its exit as the
 *    kernel tells it (flight_gone_reason).
 *
 * The runtime finds the ring by FNTRACE_OOPS_FD and switches
 * ftrace_dump_on_oops on; it writes its function tables into
 * DIR.tables-PID, which the keeper copies into each snapshot and removes
 * as it ends.  The program sees what it sees under run: its pid, output,
 * exit status and core dump, plus one descriptor past its limit (the
 * ring's, as under record).  The ring exists from the start, so its size
 * is fixed: buffer_size_kb can no longer change it.
 */
#include "flight.h"
#include "keeper.h"
#include "../cli/cli.h"
#include "../common/clock_pair.h"
#include "../common/shm.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RING_KB 16384		/* run's own buffer's default size */

struct keeper {
	char dir[4096];		/* DIR, absolute: the keeper leaves the cwd */
	char tables[4200];	/* DIR.tables-PID, where the program writes */
	char *command;
	pid_t pid;		/* the program's: run's own */
	int ring_fd, pidfd;
};

/* ---- the keeper ---- */

/* Until the program has ended, a crash of another of its processes
 * written out meanwhile (flight_take_new empties the bell). */
static void wait_end(struct flight *f)
{
	for (;;) {
		struct pollfd p[2] = { { .fd = f->bell, .events = POLLIN },
				       { .fd = f->pidfd, .events = POLLIN } };

		flight_take_new(f);
		flight_crash_take(f);
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			return;
		if (p[1].revents)
			return;
	}
}

static void keep(const struct keeper *k, struct ft_shm *ring)
{
	struct datadir_info info = { .command = k->command, .tracer = "function_graph",
				     .pid = k->pid };
	struct flight f = { .snap_fd = -1, .bell = -1, .pidfd = k->pidfd };

	info.started = time(NULL);
	ft_clock_pair(&info.clock.ticks[0], &info.clock.ns[0]);
	info.clock.ticks[1] = info.clock.ticks[0];
	info.clock.ns[1] = info.clock.ns[0];
	snprintf(info.exit, sizeof(info.exit), "not known (the kernel keeps it from Linux 6.15)");
	if (flight_start_keeper(&f, k->dir, k->tables, ring, &info) || flight_crash_watch(&f)) {
		flight_close(&f);
		return;
	}
	f.tables = flight_shared_tables;
	f.tables_arg = &f;
	f.own_pid = (uint32_t)k->pid;
	wait_end(&f);
	flight_crash_take(&f);		/* a child's, just before */
	if (flight_gone_reason(&f, info.exit, sizeof(info.exit)) == FT_SNAP_CRASH)
		flight_final(&f, FT_SNAP_CRASH, 1);
	flight_close(&f);
}

/* stdin and stdout on /dev/null, and no descriptor but a, b and stderr:
 * a pipe's reader would wait for the keeper to close its end. */
static void only_ours(int a, int b)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	unsigned lo = (unsigned)(a < b ? a : b), hi = (unsigned)(a < b ? b : a);

	if (null >= 0 && (dup2(null, 0) < 0 || dup2(null, 1) < 0))
		cli_error("--dump-on-oops: the keeper keeps the program's stdin and stdout");
	if (lo > 3)
		syscall(SYS_close_range, 3u, lo - 1, 0u);
	if (hi > lo + 1)
		syscall(SYS_close_range, lo + 1, hi - 1, 0u);
	syscall(SYS_close_range, hi + 1, ~0u, 0u);
}

static __attribute__((noreturn)) void keeper_main(struct keeper *k)
{
	struct ft_shm head, *ring = MAP_FAILED;

	setsid();
	if (chdir("/"))
		cli_error("--dump-on-oops: the keeper stays in the program's directory");
	only_ours(k->ring_fd, k->pidfd);
	signal(SIGPIPE, SIG_IGN);	/* a stderr that closed: its line is lost */
	if (pread(k->ring_fd, &head, sizeof(head), 0) == sizeof(head))
		ring = mmap(NULL, ft_shm_size(&head), PROT_READ | PROT_WRITE, MAP_SHARED,
			    k->ring_fd, 0);
	close(k->ring_fd);
	if (ring != MAP_FAILED)
		keep(k, ring);
	flight_tables_remove(k->tables);
	_exit(0);
}

/* ---- run's side ---- */

/* DIR as an absolute name: the program and the keeper may move. */
static int absolute(const char *dir, char *buf, size_t len)
{
	char name[4096], cwd[4096];
	int n;

	if (datadir_name(dir, name, sizeof(name)))
		return -1;
	if (name[0] == '/')
		n = snprintf(buf, len, "%s", name);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(buf, len, "%s/%s", cwd, name);
	else
		n = -1;
	if (n < 0 || (size_t)n >= len) {
		cli_error("--dump-on-oops=%s: cannot name it from here", dir);
		return -1;
	}
	return 0;
}

/* fd moved off 0, 1 and 2 (run's may be closed), which the keeper
 * points at /dev/null. */
static int above_stdio(int fd)
{
	int moved;

	if (fd < 0 || fd > 2)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return moved;
}

/*
 * The keeper, a grandchild: the child between exits as soon as it has
 * forked it, and is reaped here, before the exec.  Its SIGCHLD, pending
 * only where run's caller blocked it, is taken back unless one was
 * pending before: the program must not find a child's end it never had.
 */
static int spawn(struct keeper *k)
{
	struct timespec none = { 0, 0 };
	sigset_t pending, chld;
	int was, status;
	pid_t mid;

	sigpending(&pending);
	was = sigismember(&pending, SIGCHLD);
	mid = fork();
	if (mid == 0) {
		pid_t keeper = fork();

		if (keeper == 0)
			keeper_main(k);
		_exit(keeper < 0);
	}
	if (mid < 0 || waitpid(mid, &status, 0) != mid || status != 0)
		return -1;
	sigpending(&pending);
	if (!was && sigismember(&pending, SIGCHLD)) {
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigtimedwait(&chld, NULL, &none);
	}
	return 0;
}

/* The ring, in the program's byte order, and a pidfd of run itself. */
static int make_ring(struct keeper *k, int big_endian)
{
	struct ft_shm *ring;

	if (ft_shm_create(RING_KB, FT_SHM_OVERWRITE, big_endian != FT_BIG_ENDIAN, &k->ring_fd,
			  &ring))
		return -1;
	munmap(ring, ft_shm_size(ring));
	k->ring_fd = above_stdio(k->ring_fd);
	k->pidfd = above_stdio((int)syscall(SYS_pidfd_open, getpid(), 0));
	return k->ring_fd < 0 || k->pidfd < 0 ? -1 : 0;
}

/* What the runtime finds the ring and the tables' place by, across exec. */
static int program_env(const struct keeper *k)
{
	char fd[16];

	snprintf(fd, sizeof(fd), "%d", k->ring_fd);
	return fcntl(k->ring_fd, F_SETFD, 0) || cli_set_env("FNTRACE_OOPS_FD", fd) ||
	       cli_set_env("FNTRACE_DIR", k->tables);
}

int keeper_start(const char *dir, char *const argv[], int big_endian)
{
	struct keeper k = { .pid = getpid(), .ring_fd = -1, .pidfd = -1 };
	size_t argc = 0;
	int ret = -1;

	while (argv[argc])
		argc++;
	if (absolute(dir, k.dir, sizeof(k.dir)) || datadir_check_output(k.dir))
		return -1;
	snprintf(k.tables, sizeof(k.tables), "%s.tables-%d", k.dir, (int)k.pid);
	/* One a keeper killed left, under a pid used again. */
	flight_tables_remove(k.tables);
	if (!(k.command = cli_command_line(argv, argc)) || make_ring(&k, big_endian) ||
	    mkdir(k.tables, 0755) || spawn(&k) || program_env(&k))
		cli_error("--dump-on-oops=%s: cannot start the keeper: %s", dir, strerror(errno));
	else
		ret = 0;
	if (ret && k.ring_fd >= 0)
		close(k.ring_fd);
	if (ret)
		flight_tables_remove(k.tables);
	if (k.pidfd >= 0)
		close(k.pidfd);
	free(k.command);
	return ret;
}
