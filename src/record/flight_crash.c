// SPDX-License-Identifier: GPL-2.0
/*
 * The last snapshot of a program that crashed (the kernel's
 * ftrace_dump_on_oops).  The ring outlives the program: it is the
 * memory of whoever holds it (a recorder, or run --dump-on-oops's keeper),
 * and a process that dies writes nothing more into it, so the window
 * copied once the program has ended is the window at the crash, whatever
 * the program's handler or its core dump did meanwhile.  What remains is
 * to say why: the crashing thread's stamp in the ring's header
 * (../common/crash.h, written by ../core/crash.c), or, where none was
 * written (the signal blocked, no stack left to run a handler on, a crash
 * before the runtime started), the process's wait status: the recorder's
 * child's, or what the kernel keeps for a pidfd of one that is not.
 *
 * A crash in another process of the program (a forked child) does not
 * end it: the ring goes on, and would overwrite the dead process's last
 * chunks.  So a thread of the recorder sleeps on the stamp (a futex in
 * the shared page: the program may have closed any descriptor of ours)
 * and rings the bell the recorder sleeps on; the recorder waits for that
 * process to be gone, then copies the ring as for the last snapshot.
 */
#include "flight.h"
#include "record.h"
#include "../common/shm.h"

#include "../cli/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int is_crash_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	       sig == SIGABRT;
}

static const char *text(const char *field, size_t size, char *buf)
{
	memcpy(buf, field, size);
	buf[size - 1] = '\0';
	return buf;
}

/* "SIGSEGV in thread T (name) of pid P, address A, si_code C": the
 * address only for the faults that have one. */
static void say_stamp(const struct ft_shm *ring, const struct ft_crash *c, char *buf, size_t len)
{
	char sig[sizeof(c->signal)], comm[sizeof(c->comm)], addr[48] = "";
	int code = (int)ft_shm_u32(ring, (uint32_t)c->code);

	text(c->signal, sizeof(c->signal), sig);
	if (code > 0 && (!strcmp(sig, "SIGSEGV") || !strcmp(sig, "SIGBUS")))
		snprintf(addr, sizeof(addr), ", address 0x%" PRIx64, ft_shm_u64(ring, c->addr));
	snprintf(buf, len, "%s in thread %u (%s) of pid %u%s, si_code %d", sig,
		 ft_shm_u32(ring, c->tid), text(c->comm, sizeof(c->comm), comm),
		 ft_shm_u32(ring, c->pid), addr, code);
}

/* The stamp, if a whole one is there: 1. */
static int stamped(const struct ft_shm *ring, const struct ft_crash **out)
{
	const struct ft_crash *c = &ring->crash;

	*out = c;
	return ft_shm_u32(ring, atomic_load(&((struct ft_crash *)c)->state)) == FT_CRASH_STAMPED;
}

/* Why the last snapshot: crashed is 1 if the program died of a crash
 * signal, 0 if not, -1 if that is not known (only its stamp tells). */
static unsigned end_reason(struct flight *f, int crashed, int sig)
{
	const struct ft_crash *c;
	int has_stamp = stamped(f->ring, &c);
	int own = has_stamp && ft_shm_u32(f->ring, c->pid) == f->own_pid;
	char said[sizeof(f->why)];

	f->why[0] = '\0';
	if (has_stamp)
		say_stamp(f->ring, c, said, sizeof(said));
	if (crashed < 0)
		crashed = own;
	if (crashed && own) {
		snprintf(f->why, sizeof(f->why), "%s", said);
		return FT_SNAP_CRASH;
	}
	if (crashed) {
		snprintf(f->why, sizeof(f->why), "SIG%s: no thread said it (the signal was "
			 "blocked, or no stack was left to handle it)", sigabbrev_np(sig));
		return FT_SNAP_CRASH;
	}
	if (has_stamp)
		snprintf(f->why, sizeof(f->why), "an earlier crash: %.100s", said);
	return FT_SNAP_END;
}

unsigned flight_end_reason(struct flight *f, int status)
{
	int crashed = WIFSIGNALED(status) && is_crash_signal(WTERMSIG(status));

	return end_reason(f, crashed, crashed ? WTERMSIG(status) : 0);
}

/* linux/pidfd.h's struct pidfd_info as far as the core dump's mask
 * (Linux 6.15, 6.16), which the libc headers here may not have yet. */
struct pidfd_exit {
	uint64_t mask;
	uint64_t cgroupid;
	uint32_t ids[11];
	int32_t exit_code;
	uint32_t coredump_mask;
	uint32_t coredump_signal;
};
#define PIDFD_INFO_EXIT_BIT	(1u << 3)
#define PIDFD_INFO_COREDUMP_BIT	(1u << 4)
#define PIDFD_COREDUMPED_BIT	(1u << 0)
#define PIDFD_GET_INFO_EXIT	_IOWR(0xFF, 11, struct pidfd_exit)

/*
 * The wait status of the process pidfd names, which is not ours to
 * wait() for: the kernel keeps it for a pidfd once the parent has reaped
 * the process (a zombie has none yet).  A parent reaps at once as a rule,
 * but a loaded machine may not run it for a while (a second was seen to
 * be too short under qemu-user); one that has not within REAP_WAIT_MS, or
 * a kernel before 6.15, tells nothing: -1.  While the parent reaps it,
 * the kernel may say ESRCH: it saw no exit yet, then found the task gone
 * from its pid (pidfd_info's last check); asked again, it tells the exit
 * kept by then.  A kernel without the exit says ESRCH for good, so that
 * answer is taken a few times only.  The exit code kept is the thread
 * group leader's: if it ended while another thread dumped core, it lacks
 * the bit that says a core was dumped.  A dump to a helper (a
 * core_pattern pipe or socket) is noted for the pidfd (6.16), and puts
 * the bit back; one to a file is not, and the bit may be missing (as
 * Linux 6.18 has it).
 */
#define REAP_WAIT_MS 5000
#define REAPING_TRIES 10

/* 1 with the status, 0 if not kept yet, -1 if it never will be. */
static int kept_status(int pidfd, int *status, int *reaping)
{
	struct pidfd_exit info = { .mask = PIDFD_INFO_EXIT_BIT | PIDFD_INFO_COREDUMP_BIT };

	if (ioctl(pidfd, PIDFD_GET_INFO_EXIT, &info))
		return errno == ESRCH && ++*reaping <= REAPING_TRIES ? 0 : -1;
	if (!(info.mask & PIDFD_INFO_EXIT_BIT))
		return 0;
	*status = info.exit_code;
	if ((info.mask & PIDFD_INFO_COREDUMP_BIT) &&
	    (info.coredump_mask & PIDFD_COREDUMPED_BIT) && WIFSIGNALED(*status))
		*status |= WCOREFLAG;
	return 1;
}

static int gone_status(int pidfd, int *status)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int reaping = 0;

	for (int waited = 0; pidfd >= 0 && waited < REAP_WAIT_MS; waited += 10) {
		int kept = kept_status(pidfd, status, &reaping);

		if (kept)
			return kept > 0 ? 0 : -1;
		nanosleep(&tick, NULL);
	}
	return -1;
}

unsigned flight_gone_reason(struct flight *f, char *exit, size_t len)
{
	int status;

	if (gone_status(f->pidfd, &status))
		return end_reason(f, -1, 0);
	record_describe_exit(status, exit, len);
	return flight_end_reason(f, status);
}

/* ---- another process's crash, at its time ---- */

/* Asleep on the stamp, awake once a second to see whether to stop. */
static void *watch(void *arg)
{
	struct flight *f = arg;
	_Atomic uint32_t *state = &f->ring->crash.state;
	struct timespec second = { 1, 0 };
	uint64_t one = 1;

	while (!atomic_load(&f->stop_watching)) {
		uint32_t now = atomic_load(state);

		if (ft_shm_u32(f->ring, now) != FT_CRASH_STAMPED) {
			syscall(SYS_futex, state, FUTEX_WAIT, now, &second, NULL, 0);
			continue;
		}
		if (write(f->bell, &one, sizeof(one)) < 0)
			cli_error("the crash watcher cannot ring the bell: %s", strerror(errno));
		break;
	}
	return NULL;
}

int flight_crash_watch(struct flight *f)
{
	sigset_t all, was;
	int err;

	/* The recorder's signals are its main thread's. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &was);
	err = pthread_create(&f->watcher, NULL, watch, f);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	if (err) {
		cli_error("cannot start the crash watcher: %s", strerror(err));
		return -1;
	}
	f->watching = 1;
	return 0;
}

void flight_crash_unwatch(struct flight *f)
{
	if (!f->watching)
		return;
	atomic_store(&f->stop_watching, 1);
	syscall(SYS_futex, &f->ring->crash.state, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	pthread_join(f->watcher, NULL);
	f->watching = 0;
}

/* Until pid has ended (a zombie counts), a second at most. */
static void wait_gone(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (fd < 0)
		return;		/* gone already, or no pidfd: the copy now */
	poll(&p, 1, 1000);
	close(fd);
}

void flight_crash_take(struct flight *f)
{
	const struct ft_crash *c;
	pid_t pid;

	if (f->crash_seen || !stamped(f->ring, &c))
		return;
	f->crash_seen = 1;
	pid = (pid_t)ft_shm_u32(f->ring, c->pid);
	if ((uint32_t)pid == f->own_pid)
		return;		/* the last snapshot tells it */
	wait_gone(pid);
	say_stamp(f->ring, c, f->why, sizeof(f->why));
	flight_final(f, FT_SNAP_CRASH, 0);
	f->why[0] = '\0';
}
