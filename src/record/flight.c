// SPDX-License-Identifier: GPL-2.0
/*
 * Writing snapshots out as data directories (flight.h).  The recorder
 * reads the snapshot buffer while the program's control thread may take
 * the next one: it says so in the buffer's `reader` (a snapshot waits a
 * little for it) and checks the sequence number after; a copy that a new
 * snapshot overwrote meanwhile is thrown away, and the new one written.
 */
#include "flight.h"
#include "../cli/cli.h"
#include "../common/clock_pair.h"
#include "../common/fileio.h"
#include "../common/shm.h"
#include "../trace/counts.h"
#include "../trace/trace_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int paths(struct flight *f, const char *dir)
{
	if (datadir_name(dir, f->dir, sizeof(f->dir)))
		return -1;
	snprintf(f->shared, sizeof(f->shared), "%s/shared", f->dir);
	return 0;
}

int flight_start(struct flight *f, const char *dir, struct ft_shm *ring,
		 const struct datadir_info *run)
{
	f->ring = ring;
	f->run = run;
	f->snap_fd = f->bell = -1;
	if (paths(f, dir) || flight_dir_create(f->dir, f->shared, run))
		return -1;
	f->dir_made = 1;
	if (ft_snap_create(ring, &f->snap_fd, &f->snap) ||
	    (f->bell = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
		cli_error("cannot make the snapshot buffer: %s", strerror(errno));
		flight_close(f);
		return -1;
	}
	return 0;
}

int flight_start_attached(struct flight *f, const char *dir, struct ft_shm *ring,
			  int snap_fd, int bell, const struct datadir_info *run)
{
	uint32_t stamped = ft_shm_u32(ring, FT_CRASH_STAMPED);

	f->ring = ring;
	f->run = run;
	f->snap_fd = snap_fd;
	f->bell = bell;
	f->snap = ft_snap_map(snap_fd);
	if (paths(f, dir)) {
		flight_close(f);
		return -1;
	}
	if (!f->snap || !ft_snap_fits(f->snap, ring) || fcntl(bell, F_SETFL, O_NONBLOCK)) {
		cli_error("the process sent no usable snapshot buffer");
		flight_close(f);
		return -1;
	}
	/* What it held from before is not this recording's, nor a crash a
	 * child stamped while nobody watched (one being stamped is left). */
	f->seen = ft_snap_seq(f->snap);
	atomic_compare_exchange_strong(&ring->crash.state, &stamped, ft_shm_u32(ring, FT_CRASH_NONE));
	f->dir_made = !flight_dir_create(f->dir, f->shared, run);
	return f->dir_made ? 0 : -1;
}

int flight_start_keeper(struct flight *f, const char *dir, const char *tables,
			struct ft_shm *ring, const struct datadir_info *run)
{
	f->ring = ring;
	f->run = run;
	f->snap_fd = f->bell = -1;
	if (paths(f, dir))
		return -1;
	snprintf(f->shared, sizeof(f->shared), "%s", tables);
	if (ft_snap_create(ring, &f->snap_fd, &f->snap) ||
	    (f->bell = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
		cli_error("cannot make the snapshot buffer: %s", strerror(errno));
		flight_close(f);
		return -1;
	}
	return 0;
}

void flight_close(struct flight *f)
{
	flight_crash_unwatch(f);
	if (f->snap)
		munmap(f->snap, ft_snap_size(f->snap));
	if (f->snap_fd >= 0)
		close(f->snap_fd);
	if (f->bell >= 0)
		close(f->bell);
	if (f->pidfd >= 0)
		close(f->pidfd);
	f->snap = NULL;
	f->snap_fd = f->bell = f->pidfd = -1;
}

/* ---- one snapshot out ---- */

/* shared/NAME into dir, if it is there. */
static int copy_shared(const struct flight *f, const char *dir, const char *name)
{
	char from[4400], to[4400], *text;
	int ret;

	snprintf(from, sizeof(from), "%s/%s", f->shared, name);
	if (access(from, F_OK))
		return 0;
	snprintf(to, sizeof(to), "%s/%s", dir, name);
	text = read_text_file(from);
	ret = text ? replace_file(to, text, strlen(text), 0644) : -1;
	free(text);
	return ret;
}

/* The function tables a program the recorder started wrote in shared/,
 * for each process whose events the snapshot holds. */
int flight_shared_tables(void *arg, const char *dir, const struct drainer *d)
{
	const struct flight *f = arg;
	char name[64];
	int ret = 0;

	for (unsigned i = 0; i < d->nr_slots; i++) {
		if (!d->threads[i].tid)
			continue;
		ft_funcs_path(name, sizeof(name), NULL, d->threads[i].pid, d->threads[i].image);
		ret |= copy_shared(f, dir, name);
	}
	return ret ? -1 : 0;
}

static char *field_text(const char *field, size_t size, char *buf)
{
	memcpy(buf, field, size);
	buf[size - 1] = '\0';
	return buf;
}

/* Who asked for the snapshot, in words, for the line said. */
static void asked(const struct ft_snap *s, char *buf, size_t len)
{
	unsigned by = ft_snap_u32(s, s->asked_by);
	char why[sizeof(s->why)];

	switch (ft_snap_u32(s, s->reason)) {
	case FT_SNAP_CONTROL:
		snprintf(buf, len, "written to the snapshot file, by pid %u", by);
		break;
	case FT_SNAP_PROGRAM:
		if (*field_text(s->why, sizeof(s->why), why))
			snprintf(buf, len, "trigger %s", why);
		else
			snprintf(buf, len, "asked by thread %u of the program", by);
		break;
	case FT_SNAP_END:
		snprintf(buf, len, "the program's end: the ring's last window");
		break;
	case FT_SNAP_CRASH:
		snprintf(buf, len, "a crash: %.*s", (int)sizeof(s->why), s->why);
		break;
	default:
		snprintf(buf, len, "the recording's end: the ring's window then");
	}
}

/* What the line on a snapshot says of its header, read while the copy
 * is still the one written out: the program may take the next at once. */
struct said_header {
	char why[160];
	uint64_t lost;
};

static void read_said(const struct flight *f, struct said_header *h)
{
	asked(f->snap, h->why, sizeof(h->why));
	h->lost = ft_snap_u64(f->snap, f->snap->lost);
}

/* What the snapshot's directory kept (--max-size drops its oldest
 * chunks, as a recording's), and the ring's count of events no chunk was
 * free for since the start: a window short of the truth says so. */
static void say_written(const struct flight *f, const struct drainer *d, const char *name,
			const struct said_header *h)
{
	char size[32], cut[192];
	struct tr_counts kept = d->written;

	tr_counts_sub(&kept, &d->dir->cap.counts);
	fprintf(stderr, "fntrace: snapshot %u (%s): %llu calls, %llu events (%s) in %u "
		"thread%s, %llu lost so far%s -> %s\n", f->written, h->why,
		(unsigned long long)kept.calls, (unsigned long long)kept.events,
		tr_format_bytes(size, sizeof(size), d->dir->size), d->nr_threads,
		d->nr_threads == 1 ? "" : "s", (unsigned long long)h->lost,
		drain_say_cut(d, cut, sizeof(cut)), name);
}

/* The info every snapshot's directory gets: the run's, with the
 * snapshot's tracer and lines. */
static void snapshot_info(const struct flight *f, struct datadir_info *info, char *tracer,
			  char *extra, size_t extra_len)
{
	*info = *f->run;
	field_text(f->snap->tracer, sizeof(f->snap->tracer), tracer);
	if (*tracer)
		info->tracer = tracer;
	ft_snap_info_lines(f->snap, extra, extra_len);
	info->extra = extra;
	if (ft_snap_u32(f->snap, f->snap->reason) != FT_SNAP_END &&
	    ft_snap_u32(f->snap, f->snap->reason) != FT_SNAP_CRASH)
		info->exit[0] = '\0';
}

/* A chunk's ticks in CLOCK_MONOTONIC ns, by the clock samples the
 * snapshot's info gives its reader (the program's own, if it took two). */
static uint64_t ticks_ns(const struct datadir_info *i, uint64_t ticks)
{
	const struct clock_sync *c = i->program_clock.ns[1] ? &i->program_clock : &i->clock;

	return tr_interpolate_ns(c->ticks[0], c->ns[0], c->ticks[1], c->ns[1], ticks);
}

/*
 * The kernel's events of the snapshot's window into its directory: none
 * later than the copy (snapshot_taken), none earlier than the first
 * event of its earliest chunk (or, --max-size having dropped some, the
 * start of the oldest kept); what the bound overwrote and the kernel
 * lost before them into its info (a line of extra).  The perf rings are
 * read first: what happened up to the copy is in them.  0, or -1 said.
 */
static int write_kevents(const struct flight *f, const struct datadir_info *info,
			 const struct drainer *dr, const char *dir, char *extra, size_t len)
{
	uint64_t taken = ft_snap_u64(f->snap, f->snap->taken_ns), first = dr->earliest, from = 0;
	struct kev_window w;
	size_t used = strlen(extra);

	if (first && info->cut.kept_from > first)
		first = info->cut.kept_from;
	if (first)
		from = ticks_ns(info, first);
	kev_drain(f->kev);
	if (kev_keep_write(&f->kev->keep, dir, from, taken, &w))
		return -1;
	kev_keep_info(&w, extra + used, len - used);
	return 0;
}

/* DIR, made at the first snapshot if it is not there yet (the keeper's:
 * a program that ends well leaves nothing).  Its shared/ stays empty:
 * the tables are copied into each snapshot from where the keeper's
 * program writes them. */
static int dir_made(struct flight *f)
{
	char shared[4200];

	if (!f->dir_made) {
		snprintf(shared, sizeof(shared), "%s/shared", f->dir);
		f->dir_made = !flight_dir_create(f->dir, shared, f->run);
	}
	return f->dir_made;
}

/* Under read_begin's seq: DIR/snapshot.N, whole, or nothing.  1 if a
 * snapshot taken meanwhile overwrote the copy. */
static int write_out(struct flight *f, uint32_t seq)
{
	struct datadir d = { .trace_fd = -1 };
	struct datadir_info info;
	struct drainer dr = { 0 };
	struct said_header said;
	char name[4200], tracer[sizeof(f->snap->tracer)], extra[1280];
	int ok;

	snapshot_info(f, &info, tracer, extra, sizeof(extra));
	snprintf(name, sizeof(name), "%s/snapshot.%u", f->dir, f->written + 1);
	if (!dir_made(f) || datadir_create(&d, name, &info)) {
		ft_snap_read_end(f->snap, seq);
		return 0;
	}
	/* The recorder's clock from the start to now stands in for a
	 * program that never took two samples of its own (drain.c). */
	info.started = f->run->started;
	info.clock.ticks[0] = f->run->clock.ticks[0];
	info.clock.ns[0] = f->run->clock.ns[0];
	ft_clock_pair(&info.clock.ticks[1], &info.clock.ns[1]);
	dr = (struct drainer){ .shm = ft_snap_shm(f->snap), .dir = &d };
	drain(&dr, DRAIN_KEEP);
	ok = !f->tables(f->tables_arg, d.tmp, &dr) && !copy_shared(f, d.tmp, "args") &&
	     !copy_shared(f, d.tmp, "enums");
	if (f->kev)
		write_kevents(f, &info, &dr, d.tmp, extra, sizeof(extra));
	read_said(f, &said);
	if (!ft_snap_read_end(f->snap, seq)) {
		datadir_abandon(&d);
		drain_free(&dr);
		return 1;
	}
	if (!ok)
		cli_error("%s: cannot copy the function tables", name);
	if (datadir_seal(&d) == 0) {
		f->written++;
		f->bytes += d.size;
		say_written(f, &dr, name, &said);
	}
	drain_free(&dr);
	return 0;
}

void flight_take_new(struct flight *f)
{
	uint64_t rang;

	if (read(f->bell, &rang, sizeof(rang)) < 0 && errno != EAGAIN)
		return;
	for (;;) {
		int64_t seq = ft_snap_read_begin(f->snap, (uint32_t)getpid());

		if (seq < 0)
			return;		/* being taken: the bell rings after */
		if ((uint32_t)seq == f->seen ||
		    ft_snap_u32(f->snap, f->snap->reason) == FT_SNAP_NONE) {
			f->seen = (uint32_t)seq;
			ft_snap_read_end(f->snap, (uint32_t)seq);
			return;
		}
		f->seen = (uint32_t)seq;
		if (!write_out(f, (uint32_t)seq))
			return;
	}
}

/* ---- record -p: waiting ---- */

/*
 * Until over(arg), Ctrl-C, or end_ns (CLOCK_MONOTONIC; 0: none), asleep
 * in one ppoll() on the bell and the process's pidfd, which is readable
 * once it ends; SIGINT and SIGTERM are blocked but there.  A kernel
 * without pidfd_open() (before 5.3) has the end looked for every second;
 * with kernel events, their rings are read every KEV_PASS_MS (nothing
 * wakes us for them).
 */
void flight_watch(struct flight *f, pid_t pid, uint64_t end_ns, int (*over)(void *), void *arg)
{
	sigset_t waits, during;

	cli_catch_interrupt();
	sigemptyset(&waits);
	sigaddset(&waits, SIGINT);
	sigaddset(&waits, SIGTERM);
	sigprocmask(SIG_BLOCK, &waits, &during);
	if (f->pidfd < 0)
		f->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		struct pollfd p[2] = { { .fd = f->bell, .events = POLLIN },
				       { .fd = f->pidfd, .events = POLLIN } };
		uint64_t now = ft_monotonic_ns(), left = end_ns ? end_ns - now : UINT64_MAX;
		struct timespec t;

		if (f->kev)
			kev_drain(f->kev);
		flight_take_new(f);
		flight_crash_take(f);
		if (cli_interrupted() || over(arg) || (end_ns && now >= end_ns))
			break;
		if (f->pidfd < 0 && left > 1000000000)
			left = 1000000000;
		if (f->kev && left > KEV_PASS_MS * 1000000ULL)
			left = KEV_PASS_MS * 1000000ULL;
		t = (struct timespec){ (time_t)(left / 1000000000), (long)(left % 1000000000) };
		ppoll(p, 2, left == UINT64_MAX ? NULL : &t, &during);
	}
	sigprocmask(SIG_SETMASK, &during, NULL);
}

/* ---- the last one ---- */

/* The lock, from the program's control thread (busy for a few ms at
 * most), or from nobody's if the program died holding it. */
static int lock(struct flight *f, int program_gone)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	uint32_t seq;

	for (int tries = 0; tries < 300; tries++) {
		if (ft_snap_lock(f->snap) == 0)
			return 0;
		nanosleep(&tick, NULL);
	}
	if (!program_gone)
		return -1;
	/* Held for 3 s with the program gone: a copier that died in it (a
	 * descendant still copying would have let go by now). */
	seq = ft_snap_seq(f->snap);
	atomic_store(&f->snap->seq, ft_snap_u32(f->snap, seq | 1));
	return 0;
}

static void set_text(char *field, size_t size, const char *text)
{
	memset(field, 0, size);
	snprintf(field, size, "%s", text);
}

void flight_final(struct flight *f, unsigned reason, int program_gone)
{
	struct ft_snap *s = f->snap;
	char tracer[sizeof(s->tracer)];

	flight_take_new(f);	/* one taken just before */
	if (lock(f, program_gone)) {
		cli_error("cannot take the last snapshot: the program's control thread holds "
			  "the snapshot buffer");
		return;
	}
	ft_snap_copy(s, f->ring);
	ft_snap_set32(s, &s->reason, reason);
	ft_snap_set32(s, &s->asked_by, 0);
	ft_snap_set32(s, &s->taken_by, (uint32_t)getpid());
	ft_snap_set32(s, &s->pid, (uint32_t)f->run->pid);
	/* The ring names the last tracer that wrote into it; a runtime that
	 * never started one leaves the run's. */
	field_text(f->ring->tracer, sizeof(f->ring->tracer), tracer);
	if (!*tracer)
		field_text(s->ring_tracer, sizeof(s->ring_tracer), tracer);
	set_text(s->tracer, sizeof(s->tracer), *tracer ? tracer : f->run->tracer);
	set_text(s->why, sizeof(s->why), f->why);
	ft_snap_unlock(s);
	flight_take_new(f);
}

void flight_say_summary(const struct flight *f)
{
	char size[32];

	if (!f->written) {
		fprintf(stderr, "fntrace: no snapshot written in %s\n", f->dir);
		return;
	}
	tr_format_bytes(size, sizeof(size), f->bytes);
	if (f->written == 1)
		fprintf(stderr, "fntrace: 1 snapshot (%s) -> %s/snapshot.1\n", size, f->dir);
	else
		fprintf(stderr, "fntrace: %u snapshots (%s) -> %s/snapshot.1 .. snapshot.%u\n",
			f->written, size, f->dir, f->written);
}
