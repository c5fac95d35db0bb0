// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's events of the traced threads, opened as perf does for
 * `perf record -e TP -- prog`: one event per tracepoint, per CPU, per
 * thread it starts on (the program, or each thread of a running
 * process), inherit set so that the threads and processes made later are
 * covered, and every event of a CPU writing into that CPU's one ring
 * (PERF_EVENT_IOC_SET_OUTPUT), which the recorder reads as it drains.
 * Times are CLOCK_MONOTONIC (use_clockid), the clock the trace's clock
 * samples tie the calls' ticks to.
 *
 * sched_switch is seen as the thread leaves a CPU (it runs in the
 * leaving thread); its return comes from the same event's
 * PERF_RECORD_SWITCH (context_switch), written as it is scheduled in.
 * sched_waking runs in the waker and names the woken thread, and the
 * kernel gives it to the woken thread's events too (__perf_task): who
 * woke whom, from either side.
 *
 * Nothing here can harm the program: the events only watch it, and a
 * ring with no room loses the kernel's events, counted (PERF_RECORD_LOST),
 * never stalls it.
 */
#include "kevents.h"
#include "../common/clock_pair.h"
#include "../common/print.h"
#include "../trace/syscall_names.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#define CAP_SYS_ADMIN_BIT	21
#define CAP_PERFMON_BIT		38

static const struct {
	const char *event;
	const char *fallback;		/* an older kernel's name for it */
	unsigned group;
	const char *fields[4];
} tp_table[NR_TPS] = {
	[TP_SYS_ENTER] = { "raw_syscalls/sys_enter", NULL, KEV_GROUP_SYSCALLS, { "id", "args" } },
	[TP_SYS_EXIT] = { "raw_syscalls/sys_exit", NULL, KEV_GROUP_SYSCALLS, { "id", "ret" } },
	[TP_SWITCH] = { "sched/sched_switch", NULL, KEV_GROUP_SCHED,
			{ "prev_state", "next_pid", "next_comm" } },
	[TP_WAKING] = { "sched/sched_waking", "sched/sched_wakeup", KEV_GROUP_SCHED,
			{ "pid", "target_cpu", "comm" } },
	[TP_FAULT] = { "exceptions/page_fault_user", NULL, KEV_GROUP_FAULTS,
		       { "address", "ip", "error_code" } },
};

static const char not_recorded[] = "kernel events not recorded";
static const char recorded_anyway[] = "the function trace is recorded as asked";

static int read_int_file(const char *path, long *v)
{
	FILE *f = fopen(path, "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%ld", v);
	fclose(f);
	return n == 1 ? 0 : -1;
}

/* CAP_PERFMON or CAP_SYS_ADMIN in the effective set. */
static int has_perfmon(void)
{
	char line[128];
	unsigned long long eff = 0;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return !!(eff & (1ULL << CAP_PERFMON_BIT | 1ULL << CAP_SYS_ADMIN_BIT));
}

/* Raw tracepoint records need CAP_PERFMON, or perf_event_paranoid -1
 * (kernel/events/core.c, perf_allow_tracepoint); said if neither. */
static int check_permitted(void)
{
	long paranoid = 2;

	read_int_file("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	if (paranoid <= -1 || has_perfmon())
		return 0;
	pr_warn("%s: tracepoints need CAP_PERFMON, or kernel.perf_event_paranoid=-1 "
		"(it is %ld): run as root, or 'sysctl kernel.perf_event_paranoid=-1' and let "
		"this user read tracefs; %s", not_recorded, paranoid, recorded_anyway);
	return -1;
}

static int find_tracepoints(struct kevents *k, const struct kev_request *req)
{
	const char *tracefs = kev_tracefs();

	if (!tracefs) {
		pr_warn("%s: tracefs is not mounted at /sys/kernel/tracing or "
			"/sys/kernel/debug/tracing (as root: mount -t tracefs nodev "
			"/sys/kernel/tracing); %s", not_recorded, recorded_anyway);
		return -1;
	}
	for (unsigned i = 0; i < NR_TPS; i++) {
		struct kev_tracepoint *tp = &k->tps[i];

		if (!(req->groups & tp_table[i].group))
			continue;
		for (unsigned f = 0; f < 4 && tp_table[i].fields[f]; f++)
			tp->fields[tp->nr_fields++] = (struct kev_field){ tp_table[i].fields[f], 0, 0 };
		if (kev_tracepoint(tracefs, tp_table[i].event, tp) &&
		    !(errno == ENOENT && tp_table[i].fallback &&
		      kev_tracepoint(tracefs, tp_table[i].fallback, tp) == 0)) {
			pr_warn("%s: %s/events/%s: %s%s; %s", not_recorded, tracefs,
				tp_table[i].event, strerror(errno),
				errno == EACCES ? " (run as root, or let this user read tracefs: "
				"mount -o remount,mode=755 on it and its events)" : "",
				recorded_anyway);
			return -1;
		}
		k->used |= 1u << i;
	}
	return 0;
}

/* "id == 0 || id == 1": the calls -e syscalls:NAMES asked for, kept by
 * the kernel's own filter. */
static void syscall_filter(const struct kev_request *req, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < req->nr_syscalls && at < len; i++)
		at += snprintf(buf + at, len - at, "%sid == %d", i ? " || " : "",
			       req->syscalls[i]);
}

static int open_event(const struct kev_tracepoint *tp, int tp_index, pid_t tid, int cpu,
		      int program)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_TRACEPOINT,
		.config = tp->id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			       PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
		.disabled = 1,		/* until it writes into its ring, filtered */
		.enable_on_exec = program,
		.inherit = 1,
		.sample_id_all = 1,
		.context_switch = tp_index == TP_SWITCH,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.wakeup_events = 1u << 30,	/* read by passes, never woken */
	};

	return syscall(SYS_perf_event_open, &a, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int keep_fd(struct kevents *k, int fd, int tp)
{
	if (k->nr_fds == k->cap_fds) {
		unsigned cap = k->cap_fds ? 2 * k->cap_fds : 64;
		int *fds = realloc(k->fds, cap * sizeof(*fds));
		unsigned char *tps = fds ? realloc(k->fd_tps, cap) : NULL;

		if (fds)
			k->fds = fds;
		if (!tps) {
			close(fd);
			return -1;
		}
		k->fd_tps = tps;
		k->cap_fds = cap;
	}
	k->fd_tps[k->nr_fds] = tp;
	k->fds[k->nr_fds++] = fd;
	return 0;
}

/* The event into its CPU's ring: the first one of a CPU gets the ring. */
static int attach_ring(struct kev_ring *r, int fd, int cpu)
{
	if (r->fd >= 0)
		return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd);
	r->fd = fd;
	r->cpu = cpu;
	return kev_ring_map(r);
}

/* One thread's events on the CPU of ring r; 1 if the thread has ended
 * meanwhile (record -p: it was in /proc a moment ago). */
static int open_thread(struct kevents *k, struct kev_ring *r, pid_t tid, int program,
		       const char *filter)
{
	for (int i = 0; i < NR_TPS; i++) {
		int fd;

		if (!(k->used & 1u << i))
			continue;
		fd = open_event(&k->tps[i], i, tid, r->cpu, program);
		if (fd < 0)
			return errno == ESRCH && !program ? 1 : -1;
		if (keep_fd(k, fd, i) || attach_ring(r, fd, r->cpu) ||
		    (*filter && i <= TP_SYS_EXIT && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)))
			return -1;
		/* A running thread's (record -p) counts from now: enabled at
		 * its open, it counted hits whose samples had no ring yet, or
		 * no filter, and were said lost at the end. */
		if (!program && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			return -1;
	}
	return 0;
}

/* 0, or -1 (errno); an offline CPU gets no ring. */
static int open_on_cpu(struct kevents *k, struct kev_ring *r, const pid_t *tids,
		       unsigned nr_tids, int program, const char *filter)
{
	for (unsigned t = 0; t < nr_tids; t++)
		if (open_thread(k, r, tids[t], program, filter) < 0)
			return r->fd < 0 && errno == ENODEV ? 0 : -1;
	return 0;
}

/* An event per tracepoint, CPU and thread: record -p of a process of a
 * hundred threads on 64 CPUs is 32 000 fds.  The soft limit goes up to
 * the hard one, as perf's does; the program's is its own, set before. */
static void more_fds(unsigned nr_tids, int cpus)
{
	struct rlimit l;

	if (getrlimit(RLIMIT_NOFILE, &l) == 0 && l.rlim_cur < l.rlim_max &&
	    l.rlim_cur < (rlim_t)nr_tids * cpus * NR_TPS + 64) {
		l.rlim_cur = l.rlim_max;
		setrlimit(RLIMIT_NOFILE, &l);
	}
}

static int open_all(struct kevents *k, const struct kev_request *req, const pid_t *tids,
		    unsigned nr_tids, int program)
{
	int cpus = get_nprocs_conf();
	char filter[KEV_MAX_SYSCALLS * 16];

	more_fds(nr_tids, cpus);
	syscall_filter(req, filter, sizeof(filter));
	k->rings = calloc(cpus, sizeof(*k->rings));
	if (!k->rings)
		return -1;
	for (int c = 0; c < cpus; c++) {
		struct kev_ring *r = &k->rings[k->nr_rings];
		int n;

		*r = (struct kev_ring){ .fd = -1, .cpu = c };
		n = open_on_cpu(k, r, tids, nr_tids, program, filter);
		if (r->fd >= 0)
			k->nr_rings++;	/* kev_close() unmaps it */
		if (n < 0) {
			pr_warn("%s: %s on CPU %d: %s; %s", not_recorded,
				r->fd >= 0 && !r->base ? "mapping its ring" : "perf_event_open", c,
				strerror(errno), recorded_anyway);
			return -1;
		}
	}
	return 0;
}

/* The threads of a running process, from /proc; NULL if it has none. */
static pid_t *threads_of(pid_t pid, unsigned *nr)
{
	char path[64];
	struct dirent *e;
	pid_t *tids = NULL;
	unsigned cap = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	*nr = 0;
	while (d && (e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (*nr == cap) {
			pid_t *more = realloc(tids, (cap = cap ? 2 * cap : 16) * sizeof(*tids));

			if (!more)
				break;
			tids = more;
		}
		tids[(*nr)++] = atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return tids;
}

static int by_tid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Thread tid's events on every CPU's ring; 0 (or it has ended), or -1. */
static int open_late_thread(struct kevents *k, pid_t tid, const char *filter)
{
	for (unsigned i = 0; i < k->nr_rings; i++) {
		int n = open_thread(k, &k->rings[i], tid, 0, filter);

		if (n)
			return n > 0 ? 0 : -1;
	}
	return 0;
}

/* One listing's threads not in seen (*nr_seen of them, sorted) opened
 * and added to it: how many, or -1. */
static int open_unseen(struct kevents *k, pid_t pid, pid_t **seen, unsigned *nr_seen,
		       const char *filter)
{
	unsigned nr, was = *nr_seen;
	pid_t *now = threads_of(pid, &nr), *more;

	more = now ? realloc(*seen, (was + nr) * sizeof(*more)) : NULL;
	if (!more) {
		free(now);
		return now ? -1 : 0;	/* none: the process has ended */
	}
	*seen = more;
	more_fds(was + nr, k->nr_rings);
	for (unsigned i = 0; i < nr; i++) {
		if (bsearch(&now[i], more, was, sizeof(*more), by_tid))
			continue;
		if (open_late_thread(k, now[i], filter)) {
			pr_warn("kernel events of thread %d not recorded: %s", (int)now[i],
				strerror(errno));
			free(now);
			return -1;
		}
		more[(*nr_seen)++] = now[i];
	}
	free(now);
	qsort(more, *nr_seen, sizeof(*more), by_tid);
	return (int)(*nr_seen - was);
}

/*
 * record -p: a thread made by a listed one before the recorder came to
 * open its events inherits none, nor does any thread it makes.  So once
 * every listed thread has them, list again and open on the new threads,
 * until a listing finds none: a thread made after its maker's events
 * were open inherits them.  A new thread may be both, inherited and
 * opened: its events then come twice in a row, and are kept once
 * (ring.c).  A process that makes threads faster than that for a
 * thousand listings is left with some uncovered, and said so.
 */
static void cover_new_threads(struct kevents *k, const struct kev_request *req, pid_t pid,
			      pid_t **tids, unsigned *nr_tids)
{
	char filter[KEV_MAX_SYSCALLS * 16];
	int n = 1;

	syscall_filter(req, filter, sizeof(filter));
	qsort(*tids, *nr_tids, sizeof(**tids), by_tid);
	for (int round = 0; n > 0 && round < 1000; round++)
		n = open_unseen(k, pid, tids, nr_tids, filter);
	if (n > 0)
		pr_warn("process %d makes threads faster than their kernel events can be opened: "
			"some of its threads' are not recorded", (int)pid);
}

void kev_header_init(struct kev_header *h, unsigned arch)
{
	*h = (struct kev_header){ .record_size = sizeof(struct kev_record), .arch = arch };
	memcpy(h->magic, KEV_MAGIC, KEV_MAGIC_LEN);
}

static int create_file(struct kevents *k, const char *dir, unsigned arch)
{
	struct kev_header h;
	char path[4200];

	kev_header_init(&h, arch);
	snprintf(path, sizeof(path), "%s/kevents", dir);
	k->out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	k->buf = malloc(1 << 16);
	if (k->out < 0 || !k->buf || write(k->out, &h, sizeof(h)) != sizeof(h)) {
		pr_warn("%s: cannot write %s: %s; %s", not_recorded, path, strerror(errno),
			recorded_anyway);
		return -1;
	}
	return 0;
}

void kev_close(struct kevents *k)
{
	for (unsigned i = 0; i < k->nr_rings; i++)
		kev_ring_unmap(&k->rings[i]);
	for (unsigned i = 0; i < k->nr_fds; i++)
		close(k->fds[i]);
	if (k->out >= 0)
		close(k->out);
	free(k->rings);
	free(k->fds);
	free(k->fd_tps);
	free(k->buf);
	free(k->wrap);
	kev_keep_free(&k->keep);
	kev_verdicts_free(k);
	free(k);
}

/* DIR/kevents, or (a flight recording, dir NULL) the ring in memory. */
static int make_sink(struct kevents *k, const char *dir, size_t keep, unsigned arch)
{
	if (dir)
		return create_file(k, dir, arch);
	if (kev_keep_init(&k->keep, keep, arch) == 0)
		return 0;
	pr_warn("%s: no memory for %zu bytes of them; %s", not_recorded, keep, recorded_anyway);
	return -1;
}

struct kevents *kev_start(const struct kev_request *req, pid_t pid, int program,
			  const char *dir, size_t keep)
{
	struct kevents *k = calloc(1, sizeof(*k));
	pid_t one = pid, *tids = program ? &one : NULL;
	unsigned nr_tids = 1;

	if (!k)
		return NULL;
	k->out = -1;
	if (!program && !(tids = threads_of(pid, &nr_tids)))
		pr_warn("%s: no threads of %d in /proc; %s", not_recorded, (int)pid,
			recorded_anyway);
	if (!tids || check_permitted() || find_tracepoints(k, req) ||
	    make_sink(k, dir, keep, req->arch) || open_all(k, req, tids, nr_tids, program)) {
		if (tids != &one)
			free(tids);
		kev_close(k);
		return NULL;
	}
	if (!program)
		cover_new_threads(k, req, pid, &tids, &nr_tids);
	if (tids != &one)
		free(tids);
	return k;
}

void kev_drain(struct kevents *k)
{
	kev_file_own_work(k, k->finished);
	for (unsigned i = 0; i < k->nr_rings; i++)
		kev_ring_read(k, &k->rings[i]);
	kev_flush(k);
}

/*
 * Events lost that no PERF_RECORD_LOST says: the kernel writes one only
 * when its ring next takes a record, which after the program's end none
 * does.  Each event counts its hits (read(): the tracepoint's, its
 * inherited copies' added as they ended), so what neither a sample nor a
 * LOST record accounts for is said in a last LOST record.  A lower bound
 * (a LOST record also counts side-band records, the switches' returns),
 * and for record -p short of the threads still running, whose copies'
 * hits are not added yet.  Not of the
 * wake-ups: sched_waking counts more hits than it gives samples (a
 * traced thread's wakings seen by its events on other CPUs, it seems),
 * so only the other tracepoints are held to their hits.  A sample read
 * twice and kept once (a thread whose events were opened twice) was two
 * hits, and one of the control thread's, left out, was one.
 */
static void say_unsaid_lost(struct kevents *k)
{
	const uint64_t *n = k->counts.by_kind, *twice = k->counts.repeated;
	const uint64_t *ours = k->counts.left_out;
	uint64_t hits = 0, count, seen;

	for (unsigned i = 0; i < k->nr_fds; i++)
		if (k->fd_tps[i] != TP_WAKING &&
		    read(k->fds[i], &count, sizeof(count)) == sizeof(count))
			hits += count;
	/* Then the rings, which now hold every sample those hits wrote:
	 * hits read after the last pass would count, as lost, the samples
	 * a process still running (record -p) wrote since. */
	kev_drain(k);
	seen = n[KEV_SYS_ENTER] + n[KEV_SYS_EXIT] + n[KEV_SWITCH_OUT] + n[KEV_FAULT] +
	       n[KEV_LOST] + twice[KEV_SYS_ENTER] + twice[KEV_SYS_EXIT] +
	       twice[KEV_SWITCH_OUT] + twice[KEV_FAULT] + ours[KEV_SYS_ENTER] +
	       ours[KEV_SYS_EXIT] + ours[KEV_SWITCH_OUT] + ours[KEV_FAULT];
	if (hits > seen)
		kev_put(k, &(struct kev_record){ .time = ft_monotonic_ns(), .kind = KEV_LOST,
						 .cpu = 0xffff, .value = (int64_t)(hits - seen) });
}

void kev_last(struct kevents *k)
{
	if (k->finished)
		return;
	k->finished = 1;
	kev_drain(k);
	say_unsaid_lost(k);
	kev_flush(k);
}

/* A flight recording's: how many the bound overwrote, of how many. */
static const char *overwritten_text(const struct kevents *k, char *buf, size_t len)
{
	const struct kev_keep *kp = &k->keep;

	buf[0] = '\0';
	if (kp->recs)
		snprintf(buf, len, "; %llu overwritten (the newest %zu kept in memory)",
			 (unsigned long long)(kp->put > kp->cap ? kp->put - kp->cap : 0), kp->cap);
	return buf;
}

void kev_finish(struct kevents *k)
{
	const uint64_t *n = k->counts.by_kind;
	char overwritten[96];

	kev_last(k);
	fprintf(stderr, "fntrace: kernel events: %llu system calls, %llu context switches, "
		"%llu wake-ups, %llu page faults; %llu lost%s%s\n",
		(unsigned long long)n[KEV_SYS_ENTER], (unsigned long long)n[KEV_SWITCH_OUT],
		(unsigned long long)n[KEV_WAKEUP], (unsigned long long)n[KEV_FAULT],
		(unsigned long long)n[KEV_LOST], overwritten_text(k, overwritten, sizeof(overwritten)),
		k->write_failed ? " (the file could not take them all)" : "");
	kev_close(k);
}
