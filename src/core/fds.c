// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's own descriptors, out of the program's way.
 *
 * A service starts by closing every descriptor it did not open (a loop of
 * close(), close_range(), closefrom()) and puts its own over numbers it
 * thinks free (dup2).  The runtime's descriptors must survive that, and
 * the program must not see them: its first open() returns 3, as without
 * the runtime, and a number it never opened gives EBADF.  So:
 *
 *  - each descriptor is moved to a number past the program's soft limit
 *    (the limit raised for the one fcntl(F_DUPFD) where the hard limit
 *    leaves room, then put back): there the kernel keeps the program's
 *    dup2() and F_DUPFD off it, and no open() of the program takes it.
 *    Where the hard limit leaves no room, the last FD_ROOM numbers below
 *    the limit, which a program rarely reaches;
 *  - close(), close_range() and closefrom() are wrapped: they close the
 *    program's descriptors and pass ours by;
 *  - dup2() and dup3() onto one of ours (possible where the program has
 *    raised its limit past it) move ours away first.
 *
 * The raw system calls (syscall(SYS_close_range, ...)) pass no wrapper:
 * ft_fd_checked() tells whether a slot's number is still the file it
 * took, before the control thread's accept(), a message, or the buffer
 * passed to a recorder.
 */
#include "clone.h"
#include "fds.h"
#include "ftrace.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* How many numbers the runtime's descriptors may take. */
#define FD_ROOM 16
/* Past this, the kernel's table for the process would cost more than the
 * numbers are worth (8 bytes each): stay below it, inside the limit. */
#define FD_HIGHEST 4096

static _Atomic int slots[FT_NR_FD_SLOTS] = { [0 ... FT_NR_FD_SLOTS - 1] = -1 };
/* What each slot's descriptor is: a raw close_range() passes no wrapper,
 * and the program may have put its own file at the number since. */
static struct { dev_t dev; ino_t ino; } files[FT_NR_FD_SLOTS];
/* The variable that tells an exec'd image a slot's number, or NULL: the
 * descriptor does not survive exec. */
static const char *exec_names[FT_NR_FD_SLOTS];

static int raw_close(int fd)
{
	return syscall(SYS_close, fd);
}

static int raw_dup_from(int fd, int lowest, int keep_on_exec)
{
	return syscall(SYS_fcntl, fd, keep_on_exec ? F_DUPFD : F_DUPFD_CLOEXEC, lowest);
}

/* Where the runtime's descriptors go: from the soft limit (*raise: the
 * limit must be raised to reach it), or FD_ROOM below it. */
static int high_base(const struct rlimit *lim, int *raise)
{
	rlim_t cur = lim->rlim_cur;

	*raise = cur + FD_ROOM <= FD_HIGHEST &&
		 (lim->rlim_max == RLIM_INFINITY || lim->rlim_max >= cur + FD_ROOM);
	if (*raise)
		return (int)cur;
	if (cur > FD_HIGHEST)
		return FD_HIGHEST - FD_ROOM;
	return cur > 4 * FD_ROOM ? (int)(cur - FD_ROOM) : -1;
}

/* A copy of fd from the high base up; -1 if none. */
static int dup_high(int fd, int keep_on_exec)
{
	struct rlimit lim, wide;
	int raise, base, copy = -1;

	if (getrlimit(RLIMIT_NOFILE, &lim) || (base = high_base(&lim, &raise)) < 0)
		return -1;
	if (!raise)
		return fd >= base ? -1 : raw_dup_from(fd, base, keep_on_exec);
	wide = (struct rlimit){ lim.rlim_cur + FD_ROOM, lim.rlim_max };
	if (setrlimit(RLIMIT_NOFILE, &wide))
		return -1;
	copy = raw_dup_from(fd, base, keep_on_exec);
	setrlimit(RLIMIT_NOFILE, &lim);
	return copy;
}

static void tell_exec(enum ft_fd_slot slot, int fd)
{
	char num[16];

	if (!exec_names[slot])
		return;
	snprintf(num, sizeof(num), "%d", fd);
	setenv(exec_names[slot], num, 1);
}

/*
 * The runtime takes, moves and closes its descriptors while no program
 * call that closes or replaces descriptors is inside its wrapper, and
 * the other way round: else a wrapper that found a number not ours
 * could close it the moment the runtime made it its own, or the runtime
 * close a number the program had just taken.  The runtime's side is a
 * few system calls that never wait, so a wrapper waits for it as long as
 * it takes.  The runtime waits for the wrappers inside only so long
 * (RUNTIME_PATIENCE yields), since one may be blocked in a slow close(),
 * or interrupted by a signal handler whose own close() waits for us.
 */
#define RUNTIME_PATIENCE 100000

static _Atomic int in_wrappers, runtime_busy;
/* This thread is the runtime, between runtime_enter and _leave: its own
 * calls (a close() on a failure path) do not wait for it. */
static __thread int holding;

static void program_enter(void)
{
	for (;;) {
		atomic_fetch_add(&in_wrappers, 1);
		if (holding || !atomic_load(&runtime_busy))
			return;
		atomic_fetch_sub(&in_wrappers, 1);
		while (atomic_load(&runtime_busy))
			sched_yield();
	}
}

static void program_leave(void)
{
	atomic_fetch_sub(&in_wrappers, 1);
}

static void runtime_enter(void)
{
	int idle = 0;

	while (!atomic_compare_exchange_strong(&runtime_busy, &idle, 1)) {
		idle = 0;
		sched_yield();
	}
	for (int spins = 0; atomic_load(&in_wrappers) && spins < RUNTIME_PATIENCE; spins++)
		sched_yield();
	holding = 1;
}

static void runtime_leave(void)
{
	holding = 0;
	atomic_store(&runtime_busy, 0);
}

/* A child has one thread: none of the parent's is inside either side.
 * Run for clone()'s processes too (ft_atfork): a child made while the
 * control thread held the gate would wait for it for ever. */
static void gate_after_fork(void)
{
	atomic_store(&in_wrappers, 0);
	atomic_store(&runtime_busy, 0);
	holding = 0;
}

/* The slot's fd, moved up if it is in the program's way. */
static void move_up(enum ft_fd_slot slot, int fd)
{
	int keep_on_exec = exec_names[slot] != NULL, copy;
	struct rlimit lim;

	if (!getrlimit(RLIMIT_NOFILE, &lim) && (rlim_t)fd >= lim.rlim_cur) {
		syscall(SYS_fcntl, fd, F_SETFD, keep_on_exec ? 0 : FD_CLOEXEC);
		return;		/* past the limit already: out of reach */
	}
	copy = dup_high(fd, keep_on_exec);
	if (copy < 0)
		return;
	atomic_store(&slots[slot], copy);
	raw_close(fd);
}

/* fd into the slot, and up; under runtime_enter(). */
static int take(enum ft_fd_slot slot, int fd, const char *exec_name)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		return -1;
	files[slot].dev = st.st_dev;
	files[slot].ino = st.st_ino;
	exec_names[slot] = exec_name;
	atomic_store(&slots[slot], fd);
	move_up(slot, fd);
	fd = atomic_load(&slots[slot]);
	tell_exec(slot, fd);
	return fd;
}

int ft_fd_adopt(enum ft_fd_slot slot, int fd, const char *exec_name)
{
	runtime_enter();
	fd = take(slot, fd, exec_name);
	runtime_leave();
	return fd;
}

static int make_past_limit(int (*make)(void *arg), void *arg);

/* Made and taken while no program call can close or replace it: a thread
 * that puts /dev/null over every low number in a loop would otherwise
 * take an accepted connection's number before it moved up. */
int ft_fd_open(enum ft_fd_slot slot, int (*make)(void *arg), void *arg, const char *exec_name)
{
	int fd;

	runtime_enter();
	fd = take(slot, make_past_limit(make, arg), exec_name);
	runtime_leave();
	return fd;
}

int ft_fd(enum ft_fd_slot slot)
{
	return atomic_load(&slots[slot]);
}

void ft_fd_release(enum ft_fd_slot slot)
{
	int fd;

	runtime_enter();
	fd = atomic_exchange(&slots[slot], -1);
	if (fd >= 0)
		raw_close(fd);
	runtime_leave();
}

void ft_fd_forget(enum ft_fd_slot slot)
{
	atomic_store(&slots[slot], -1);
}

int ft_fd_checked(enum ft_fd_slot slot)
{
	int fd = ft_fd(slot);
	struct stat st;

	if (fd < 0 || (!fstat(fd, &st) && st.st_dev == files[slot].dev &&
		       st.st_ino == files[slot].ino))
		return fd;
	atomic_compare_exchange_strong(&slots[slot], &fd, -1);
	return -1;
}

static int slot_of(int fd)
{
	for (int i = 0; fd >= 0 && i < FT_NR_FD_SLOTS; i++)
		if (atomic_load(&slots[i]) == fd)
			return i;
	return -1;
}

int ft_fd_is_ours(int fd)
{
	return slot_of(fd) >= 0;
}

/*
 * At the limit, a call that makes a descriptor fails (EMFILE) where the
 * runtime needs one: a control client, the buffer record -p asks for, a
 * funcs file after a fork.  It is made again with the limit raised for
 * the one call: the descriptor takes a number past the program's, which
 * it never sees.  Not where the hard limit is the soft one.
 */
static int make_past_limit(int (*make)(void *arg), void *arg)
{
	struct rlimit lim, wide;
	int fd = make(arg);

	if (fd >= 0 || errno != EMFILE || getrlimit(RLIMIT_NOFILE, &lim))
		return fd;
	wide = (struct rlimit){ lim.rlim_cur + FD_ROOM, lim.rlim_max };
	if (lim.rlim_max != RLIM_INFINITY && wide.rlim_cur > lim.rlim_max)
		wide.rlim_cur = lim.rlim_max;
	if (wide.rlim_cur <= lim.rlim_cur || setrlimit(RLIMIT_NOFILE, &wide)) {
		errno = EMFILE;
		return -1;
	}
	fd = make(arg);
	setrlimit(RLIMIT_NOFILE, &lim);
	return fd;
}

/* ---- the program's calls ---- */

/* One of ours, moved away from a number the program is taking over. */
static void move_away(int fd)
{
	int slot = slot_of(fd), copy;

	if (slot < 0)
		return;
	copy = dup_high(fd, exec_names[slot] != NULL);
	if (copy < 0)
		copy = raw_dup_from(fd, fd + 1, exec_names[slot] != NULL);
	if (copy >= 0 && atomic_compare_exchange_strong(&slots[slot], &fd, copy)) {
		tell_exec(slot, copy);
		raw_close(fd);
	} else if (copy >= 0) {
		raw_close(copy);
	}
}

typedef int (*close_fn)(int);
typedef int (*close_range_fn)(unsigned, unsigned, int);
typedef int (*dup2_fn)(int, int);
typedef int (*dup3_fn)(int, int, int);

static close_fn real_close;
static close_range_fn real_close_range;
static dup2_fn real_dup2;
static dup3_fn real_dup3;

/* Found before any update asks for them: a first dlsym() must not happen
 * inside dl_iterate_phdr(), where the runtime closes module files, nor in
 * a signal handler's close(). */
__attribute__((constructor(102))) static void find_real_closers(void)
{
	real_close = (close_fn)ft_real("close");
	real_close_range = (close_range_fn)ft_real("close_range");
	real_dup2 = (dup2_fn)ft_real("dup2");
	real_dup3 = (dup3_fn)ft_real("dup3");
	ft_atfork(NULL, NULL, gate_after_fork);
}

FT_EXPORT int close(int fd)
{
	int ret;

	program_enter();
	if (ft_fd_is_ours(fd)) {
		errno = EBADF;
		ret = -1;
	} else {
		ret = real_close ? real_close(fd) : raw_close(fd);
	}
	program_leave();
	return ret;
}

static int close_span(unsigned first, unsigned last, int flags)
{
	if (real_close_range)
		return real_close_range(first, last, flags);
	return syscall(SYS_close_range, first, last, flags);
}

/* Ours between first and last, in order. */
static int ours_between(unsigned first, unsigned last, unsigned out[FT_NR_FD_SLOTS])
{
	int n = 0;

	for (int i = 0; i < FT_NR_FD_SLOTS; i++) {
		int fd = atomic_load(&slots[i]), at = n;

		if (fd < 0 || (unsigned)fd < first || (unsigned)fd > last)
			continue;
		while (at > 0 && out[at - 1] > (unsigned)fd) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = fd;
		n++;
	}
	return n;
}

/* The span's descriptors but ours, closed (or marked close-on-exec) in
 * the pieces between them; the table unshared once, if asked. */
static int close_range_but_ours(unsigned first, unsigned last, int flags)
{
	unsigned ours[FT_NR_FD_SLOTS], from = first;
	int n = first <= last ? ours_between(first, last, ours) : 0, ret = 0;

	if (!n)
		return close_span(first, last, flags);
	if (flags & CLOSE_RANGE_UNSHARE) {
		if (unshare(CLONE_FILES))
			return -1;
		flags &= ~CLOSE_RANGE_UNSHARE;
	}
	for (int i = 0; i <= n; i++) {
		unsigned to = i < n ? ours[i] - 1 : last;

		if (from <= to && (i == n || ours[i] > 0))
			ret |= close_span(from, to, flags);
		if (i < n)
			from = ours[i] + 1;
	}
	return ret ? -1 : 0;
}

FT_EXPORT int close_range(unsigned first, unsigned last, int flags)
{
	int ret;

	program_enter();
	ret = close_range_but_ours(first, last, flags);
	program_leave();
	return ret;
}

/* Not through close_range(): attached, our own call would bind to libc's. */
FT_EXPORT void closefrom(int lowest)
{
	program_enter();
	close_range_but_ours(lowest < 0 ? 0 : lowest, ~0U, 0);
	program_leave();
}

/* May old go onto new?  Only a descriptor of the program's, and ours at
 * new moved away first, since the call closes what new was (not when
 * the call would fail: ours would move for nothing). */
static int may_dup_onto(int old, int new)
{
	if (ft_fd_is_ours(old) || syscall(SYS_fcntl, old, F_GETFD) < 0) {
		errno = EBADF;
		return 0;
	}
	if (old != new)
		move_away(new);
	return 1;
}

FT_EXPORT int dup2(int old, int new)
{
	int ret = -1;

	program_enter();
	if (may_dup_onto(old, new))
		ret = real_dup2 ? real_dup2(old, new) :
		      old == new ? new : syscall(SYS_dup3, old, new, 0);
	program_leave();
	return ret;
}

FT_EXPORT int dup3(int old, int new, int flags)
{
	int ret = -1;

	program_enter();
	if (may_dup_onto(old, new))
		ret = real_dup3 ? real_dup3(old, new, flags) : syscall(SYS_dup3, old, new, flags);
	program_leave();
	return ret;
}
