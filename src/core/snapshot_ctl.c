// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot file, as the kernel's: `echo 1 > snapshot` copies the
 * ring into the snapshot buffer (made on first use, the ring's size),
 * reading it prints that copy in its tracer's format, `echo 0` frees the
 * buffer and `echo 2` empties it.
 *
 * A snapshot is always taken by the control thread, never by a thread of
 * the program's: the copy (../common/snapshot.c) marks a full chunk
 * READING while it copies it, so a writer that needs a chunk meanwhile
 * takes another, and reads the chunks threads still fill as they fill
 * them.  A program thread that wants one (fntrace_ctl_write, a trigger,
 * the snapshot signal's handler) counts a request and writes an eventfd
 * in the control thread's epoll set, and goes on; whoever wants to know
 * when it is taken waits on a futex word.  After each snapshot the bell (an eventfd a
 * recorder polls) rings.
 *
 * A buffer the recorder made (record --overwrite) or took (record -p
 * --overwrite) is not freed while it records.
 */
#include "control.h"
#include "crash.h"
#include "snapsig.h"
#include "fds.h"
#include "lock.h"
#include "messages.h"
#include "own_work.h"
#include "snapshot_ctl.h"
#include "buffer.h"
#include "readout.h"
#include "seccomp.h"
#include "tracing.h"
#include "triggers.h"
#include "../common/clock_pair.h"
#include "../common/shm.h"
#include "../common/snapshot.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* How long a snapshot waits for a recorder still writing the previous
 * one out: it takes a few ms for 64 MB, unless the disk is slow. */
#define READER_WAIT_MS 2000
/* How long fntrace_ctl_write() waits for the control thread's copy. */
#define PROGRAM_WAIT_MS 5000

static struct ft_snap *snap;
/* The buffer is the recorder's while it records: the one that started
 * the process (recorder_made), or record -p's (holder, its pid).  Only
 * the control thread makes, frees, clears or fills it: a program thread
 * asks it to. */
static int recorder_made;
static pid_t holder;

static const char not_allocated[] =
	"# *** SNAPSHOT NOT ALLOCATED ***\n"
	"# Snapshot commands:\n"
	"# echo 0 > snapshot : Clears and frees snapshot buffer\n"
	"# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
	"#                      Takes a snapshot of the main buffer.\n"
	"# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n";

static pid_t own_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* ---- the bell ---- */

static int new_eventfd(void *unused)
{
	return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

void ft_snapshot_ring_bell(void)
{
	uint64_t one = 1;
	int fd = ft_fd(FT_FD_SNAP_BELL);

	if (fd >= 0 && write(fd, &one, sizeof(one)) < 0)
		ft_debug("snapshot: the bell: %s", strerror(errno));
}

/* ---- the buffer ---- */

int ft_snapshot_from_recorder(const char *fd, const char *bell)
{
	struct ft_snap *s;

	if (!fd || !bell)
		return 0;
	s = ft_snap_map(atoi(fd));
	if (!s || !ft_buffer_shm() || !ft_snap_fits(s, ft_buffer_shm())) {
		ft_warn("the recorder's snapshot buffer (fd %s) is not usable", fd);
		return -1;
	}
	/* Kept for the images the program execs, wherever it moves to. */
	ft_fd_adopt(FT_FD_SNAPSHOT, atoi(fd), "FNTRACE_SNAPSHOT_FD");
	ft_fd_adopt(FT_FD_SNAP_BELL, atoi(bell), "FNTRACE_SNAPSHOT_BELL");
	snap = s;
	recorder_made = 1;
	ft_snapshot_note_tracer();
	ft_crash_start();
	ft_snapsig_start(getenv("FNTRACE_SNAPSHOT_SIGNAL"));
	return 0;
}

static int create_snap(void *out)
{
	int fd;

	return ft_snap_create(ft_buffer_shm(), &fd, out) ? -1 : fd;
}

/* The buffer, made if it is not there yet. */
int ft_snapshot_alloc(char *err, size_t errlen)
{
	struct ft_snap *s = NULL;

	if (snap)
		return 0;
	if (!ft_buffer_shm()) {
		snprintf(err, errlen, "no trace buffer to take a snapshot of: start a tracer first");
		return -1;
	}
	if (ft_fd_open(FT_FD_SNAPSHOT, create_snap, &s, NULL) < 0 ||
	    (ft_fd(FT_FD_SNAP_BELL) < 0 && ft_fd_open(FT_FD_SNAP_BELL, new_eventfd, NULL, NULL) < 0)) {
		if (s)
			munmap(s, ft_snap_size(s));
		ft_fd_release(FT_FD_SNAPSHOT);
		snprintf(err, errlen, "cannot make a snapshot buffer: %s", strerror(errno));
		return -1;
	}
	snap = s;
	ft_snapshot_note_tracer();
	return 0;
}

/* The recorder holding the buffer, if one does: -1 for the one that
 * started the process, its pid for record -p's, 0 if none. */
static pid_t held_by(void)
{
	if (recorder_made)
		return -1;
	if (holder && kill(holder, 0) && errno == ESRCH)
		holder = 0;
	return holder;
}

static int release(char *err, size_t errlen)
{
	pid_t h = held_by();

	if (h) {
		snprintf(err, errlen, "the snapshot buffer is %s's while it records: not freed",
			 h < 0 ? "the fntrace record that started the process" : "fntrace record -p");
		return -1;
	}
	if (!snap)
		return 0;
	/* A tracer switch, on any thread, names the tracer in it
	 * (ft_snapshot_note_tracer, under the lock). */
	ftrace_lock();
	munmap(snap, ft_snap_size(snap));
	snap = NULL;
	ftrace_unlock();
	ft_fd_release(FT_FD_SNAPSHOT);
	ft_snapshot_ring_bell();
	return 0;
}

static void copy_text(char *field, size_t size, const char *text)
{
	memset(field, 0, size);
	snprintf(field, size, "%s", text);
}

/* Under ftrace_lock, which keeps release() from unmapping it meanwhile.
 * The ring's header names the last tracer that wrote into it, for a
 * reader that copies it once the process has ended (crash.h). */
void ft_snapshot_note_tracer(void)
{
	struct ft_shm *ring = ft_buffer_shm();

	if (snap)
		copy_text(snap->ring_tracer, sizeof(snap->ring_tracer), ft_tracer_name());
	if (ring && strcmp(ft_tracer_name(), "nop"))
		copy_text(ring->tracer, sizeof(ring->tracer), ft_tracer_name());
}

/* ---- taking one ---- */

/* The copy's clock samples end at the snapshot: the times of its last
 * events convert as well as the ring's would. */
static void note_clock(struct ft_shm *copy)
{
	uint64_t ticks, ns;

	ft_clock_pair(&ticks, &ns);
	if (!copy->clock.ns[0]) {
		copy->clock.ticks[0] = ticks;
		copy->clock.ns[0] = ns;
	}
	copy->clock.ticks[1] = ticks;
	copy->clock.ns[1] = ns;
}

/* What the latest request said it was for (static text), or NULL. */
static const char *_Atomic request_why;

static const char *asked_why(void)
{
	const char *why = atomic_exchange(&request_why, NULL);

	return why ? why : "";
}

static int take(unsigned reason, uint32_t asked_by, char *err, size_t errlen)
{
	if (ft_snapshot_alloc(err, errlen))
		return -1;
	if (ft_snap_wait_reader(snap, READER_WAIT_MS))
		ft_debug("snapshot: a recorder still writes the previous one out");
	if (ft_snap_lock(snap)) {
		snprintf(err, errlen, "another process of the program takes a snapshot now: try again");
		return -1;
	}
	ft_snap_copy(snap, ft_buffer_shm());
	snap->reason = reason;
	snap->asked_by = asked_by;
	snap->taken_by = own_tid();
	snap->pid = getpid();
	copy_text(snap->tracer, sizeof(snap->tracer), ft_tracer_name());
	copy_text(snap->why, sizeof(snap->why), reason == FT_SNAP_PROGRAM ? asked_why() : "");
	if (reason == FT_SNAP_PROGRAM)
		ft_trigger_snap_note(snap);
	note_clock(ft_snap_shm(snap));
	ft_snap_unlock(snap);
	ft_snapshot_ring_bell();
	return 0;
}

static int clear(char *err, size_t errlen)
{
	if (!snap)
		return 0;
	if (ft_snap_lock(snap)) {
		snprintf(err, errlen, "another process of the program takes a snapshot now: try again");
		return -1;
	}
	ft_snap_clear(snap);
	ft_snap_unlock(snap);
	ft_snapshot_ring_bell();
	return 0;
}

/* What a write of v (0, 1, 2) does; on the control thread. */
static int apply(unsigned long v, unsigned reason, uint32_t asked_by, char *err, size_t errlen)
{
	if (v == 0)
		return release(err, errlen);
	if (v == 2)
		return clear(err, errlen);
	return take(reason, asked_by, err, errlen);
}

/* ---- requests from program threads ---- */

/* What was asked since the last serve: bit v for a write of v. */
static _Atomic uint32_t asked_ops;
static _Atomic uint32_t requested, served;
static _Atomic pid_t request_tid;
static _Atomic int served_ok;

int ft_snapshot_requests_open(void)
{
	/* A forked child's counts are its parent's: none of them is its. */
	atomic_store(&served, atomic_load(&requested));
	ft_fd_release(FT_FD_SNAP_REQUEST);
	return ft_fd_open(FT_FD_SNAP_REQUEST, new_eventfd, NULL, NULL);
}

void ft_snapshot_requests_close(void)
{
	ft_fd_release(FT_FD_SNAP_REQUEST);
}

/* A write of v asked for by a program thread, which never takes the
 * snapshot itself: async-signal-safe (a signal handler asks: snapsig.c).
 * It counts the request and rings the eventfd the control thread sleeps
 * on; the request's ticket, or 0 if there is no control thread to take
 * it. */
static uint32_t ask(unsigned long v)
{
	int fd = ft_fd(FT_FD_SNAP_REQUEST);
	uint64_t one = 1;
	uint32_t ticket;

	if (fd < 0)
		return 0;
	atomic_fetch_or(&asked_ops, 1u << v);
	atomic_store(&request_tid, own_tid());
	ticket = atomic_fetch_add(&requested, 1) + 1;
	ticket += !ticket;	/* 0 says "none" */
	if (write(fd, &one, sizeof(one)) < 0)
		return 0;
	return ticket;
}

/* Until the control thread has served the ticket (0, or -1 if it could
 * not), or timeout_ms pass (-1). */
static int wait_served(uint32_t ticket, unsigned timeout_ms)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	for (unsigned waited = 0; waited < timeout_ms; waited += 10) {
		uint32_t now = atomic_load(&served);

		if ((int32_t)(now - ticket) >= 0)
			return atomic_load(&served_ok) ? 0 : -1;
		syscall(SYS_futex, &served, FUTEX_WAIT_PRIVATE, now, &tick, NULL, 0);
	}
	return -1;
}

/* Every request counted by now is served once: those that asked for a
 * snapshot asked for the ring as it is, and it is.  A free or a clear
 * asked for at the same time comes first. */
void ft_snapshot_serve(void)
{
	static const unsigned long order[] = { 0, 2, 1 };
	uint32_t upto, ops;
	uint64_t count;
	char err[160] = "";
	int ok = 1;

	/* The bell first, then the count: a request that rings after the
	 * read rings again, one that rang before it is counted. */
	if (read(ft_fd(FT_FD_SNAP_REQUEST), &count, sizeof(count)) < 0 && errno != EAGAIN)
		return;
	upto = atomic_load(&requested);
	if (upto == atomic_load(&served))
		return;
	ops = atomic_exchange(&asked_ops, 0);
	/* As for a client: not under a seccomp filter that came since. */
	if (!ft_seccomp_may_serve("snapshots are not taken")) {
		ops = 0;
		ok = 0;
	}
	for (unsigned i = 0; i < 3; i++)
		if ((ops & 1u << order[i]) &&
		    apply(order[i], FT_SNAP_PROGRAM, atomic_load(&request_tid), err, sizeof(err)))
			ok = 0;
	if (*err)
		ft_warn("snapshot: %s", err);
	atomic_store(&served_ok, ok);
	atomic_store(&served, upto);
	syscall(SYS_futex, &served, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* The program ends: a snapshot asked for just before (a slow call's
 * trigger as the last request returns) is the control thread's to take
 * still, and exit() would end that thread mid-copy.  It is waited for,
 * a while; one not taken by then is said lost, not left unsaid.  (An
 * _exit() runs no destructor: the end's snapshot holds that call.) */
__attribute__((destructor)) static void take_pending_at_exit(void)
{
	uint32_t upto = atomic_load(&requested);
	uint64_t from = ft_own_work_begin();

	if (upto == atomic_load(&served) || !ft_control_running())
		return;
	if (wait_served(upto, PROGRAM_WAIT_MS))
		ft_warn("snapshot: one asked for was not taken: the program ended first "
			"(the last snapshot holds what the ring kept)");
	ft_own_share_end(from);
}

/* ---- the control files ---- */

int ft_snapshot_read(struct ctl_out *o, int arg)
{
	char info[1024], tracer[sizeof(snap->tracer)];

	if (!snap) {
		ctl_printf(o, "ok\n%s", not_allocated);
		return 0;
	}
	ft_snap_info_lines(snap, info, sizeof(info));
	memcpy(tracer, snap->tracer, sizeof(tracer));
	tracer[sizeof(tracer) - 1] = '\0';
	return ft_readout_stream(o, ft_snap_shm(snap), *tracer ? tracer : ft_tracer_name(), info);
}

/* A write from a program thread (fntrace_ctl_write): the control thread
 * does it, this thread waits, as the kernel's write returns once done. */
static int from_program(unsigned long v, char *err, size_t errlen)
{
	uint32_t ticket = ask(v);

	if (!ticket) {
		snprintf(err, errlen, "no control thread to do it "
			 "(start the program with fntrace run)");
		return -1;
	}
	if (wait_served(ticket, PROGRAM_WAIT_MS)) {
		snprintf(err, errlen, "not done (see the messages file)");
		return -1;
	}
	return 0;
}

int ft_snapshot_write(const char *value, int append, int arg, char *err, size_t errlen)
{
	char *end;
	unsigned long v = strtoul(value, &end, 10);

	end += strspn(end, " \t\n");
	if (end == value || *end || v > 2) {
		snprintf(err, errlen, "not 0 (free the snapshot), 1 (take one) or 2 (clear it): '%.*s'",
			 (int)strcspn(value, "\n"), value);
		return -1;
	}
	if (!ft_control_on_thread())
		return from_program(v, err, errlen);
	return apply(v, FT_SNAP_CONTROL, ft_control_client_pid(), err, errlen);
}

/* For a recorder attaching (record -p --overwrite): the buffer, made if
 * need be, is its while it records. */
static int send_slot(struct ctl_out *o, enum ft_fd_slot slot)
{
	char err[160] = "";

	if (ft_snapshot_alloc(err, sizeof(err))) {
		ctl_printf(o, "error %d %s\n", ENOMEM, err);
		return -1;
	}
	o->send_fd = ft_fd_checked(slot);
	if (o->send_fd < 0) {
		ctl_printf(o, "error %d the snapshot buffer's descriptor was closed\n", EBADF);
		return -1;
	}
	if (slot == FT_FD_SNAPSHOT)
		holder = ctl_peer_pid(o->fd);
	ctl_printf(o, "ok\n");
	return 0;
}

int ft_snapshot_busy(struct ctl_out *o)
{
	pid_t h = held_by();

	if (!h)
		return 0;
	if (h < 0)
		ctl_printf(o, "error %d flight-recorded by the fntrace record that started it: "
			   "one recorder at a time\n", EBUSY);
	else
		ctl_printf(o, "error %d flight-recorded by fntrace record -p (pid %d): one "
			   "recorder at a time\n", EBUSY, (int)h);
	return -1;
}

int ft_snapshot_read_fd(struct ctl_out *o, int arg)
{
	return send_slot(o, FT_FD_SNAPSHOT);
}

int ft_snapshot_read_bell(struct ctl_out *o, int arg)
{
	return send_slot(o, FT_FD_SNAP_BELL);
}

/* ---- for program threads: triggers (trigger_snap.c) and signal
 * handlers (snapsig.c) ---- */

uint32_t ft_snapshot_ask(const char *why)
{
	atomic_store(&request_why, why);
	return ask(1);
}

int ft_snapshot_wait(uint32_t ticket, unsigned timeout_ms)
{
	return ticket ? wait_served(ticket, timeout_ms) : -1;
}
