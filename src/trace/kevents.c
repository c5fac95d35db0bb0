// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the kevents file: every whole record, then an index of
 * (thread, record) pairs sorted by thread and time.  A wake-up goes in
 * the waker's list and the woken thread's, where each is a thread of the
 * recording (one that made a system call or left a CPU in it).  Memory
 * grows with the number of kernel events: 80 bytes each, and 8 more a
 * list they are in.
 */
#include "kevents.h"
#include "syscall_names.h"
#include "../common/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int check_header(int fd, struct tr_kevents *k)
{
	struct kev_header h;

	if (read_all(fd, &h, sizeof(h)) || memcmp(h.magic, KEV_MAGIC, KEV_MAGIC_LEN)) {
		snprintf(k->bad, sizeof(k->bad), "not a kevents file");
		return -1;
	}
	if (h.record_size != sizeof(struct kev_record)) {
		snprintf(k->bad, sizeof(k->bad), "records of %u bytes, not %zu", h.record_size,
			 sizeof(struct kev_record));
		return -1;
	}
	k->arch = h.arch;
	return 0;
}

static int load(int fd, struct tr_kevents *k)
{
	struct stat st;
	size_t body;

	if (fstat(fd, &st) || check_header(fd, k))
		return 0;
	body = st.st_size - sizeof(struct kev_header);
	k->nr = body / sizeof(struct kev_record);
	k->truncated = body % sizeof(struct kev_record) != 0;
	k->recs = malloc(k->nr ? k->nr * sizeof(*k->recs) : 1);
	if (!k->recs)
		return -1;
	if (read_all(fd, k->recs, k->nr * sizeof(*k->recs))) {
		snprintf(k->bad, sizeof(k->bad), "%s", strerror(errno ? errno : EIO));
		k->nr = 0;
	}
	return 0;
}

static const struct kev_record *sort_recs;

static int by_thread_time(const void *a, const void *b)
{
	const struct tr_kev_ref *x = a, *y = b;
	uint64_t tx = sort_recs[x->idx].time, ty = sort_recs[y->idx].time;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int by_tid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The threads of the recording, sorted: those with events of their own. */
static uint32_t *own_threads(const struct tr_kevents *k, size_t *nr)
{
	uint32_t *tids = malloc((k->nr ? k->nr : 1) * sizeof(*tids));

	*nr = 0;
	for (size_t i = 0; tids && i < k->nr; i++)
		if (k->recs[i].kind != KEV_WAKEUP && k->recs[i].kind != KEV_LOST &&
		    k->recs[i].kind != KEV_OWN_WORK)
			tids[(*nr)++] = k->recs[i].tid;
	if (tids)
		qsort(tids, *nr, sizeof(*tids), by_tid);
	return tids;
}

static int is_own(const uint32_t *tids, size_t nr, uint32_t tid)
{
	return bsearch(&tid, tids, nr, sizeof(*tids), by_tid) != NULL;
}

/*
 * The runtime's own work (KEV_OWN_WORK): windows of a thread's time whose
 * system calls and page faults were fntrace's (its start-up, a dlopen),
 * sorted by thread and start.  Filed after the calls they hold.
 */
struct own_work {
	uint32_t tid;
	uint64_t from, to;
};

static int by_tid_from(const void *a, const void *b)
{
	const struct own_work *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

/* 0, or -1 out of memory. */
static int own_work_windows(const struct tr_kevents *k, struct own_work **w, size_t *nr)
{
	size_t n = 0;

	*w = NULL;
	*nr = 0;
	for (size_t i = 0; i < k->nr; i++)
		n += k->recs[i].kind == KEV_OWN_WORK;
	if (!n)
		return 0;
	if (!(*w = malloc(n * sizeof(**w))))
		return -1;
	for (size_t i = 0; i < k->nr; i++)
		if (k->recs[i].kind == KEV_OWN_WORK)
			(*w)[(*nr)++] = (struct own_work){ k->recs[i].tid, k->recs[i].time,
							   (uint64_t)k->recs[i].value };
	qsort(*w, n, sizeof(**w), by_tid_from);
	return 0;
}

/* A system call or page fault inside one of its thread's windows? */
static int in_own_work(const struct own_work *w, size_t nr, const struct kev_record *r)
{
	size_t lo = 0, hi = nr;

	if (r->kind != KEV_SYS_ENTER && r->kind != KEV_SYS_EXIT && r->kind != KEV_FAULT)
		return 0;
	while (lo < hi) {		/* the first window after r */
		size_t mid = (lo + hi) / 2;

		if (w[mid].tid < r->tid || (w[mid].tid == r->tid && w[mid].from <= r->time))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && w[lo - 1].tid == r->tid && r->time <= w[lo - 1].to;
}

static void add_refs(struct tr_kevents *k, const uint32_t *tids, size_t nr_tids,
		     const struct own_work *own, size_t nr_own)
{
	for (size_t i = 0; i < k->nr; i++) {
		const struct kev_record *r = &k->recs[i];

		if (r->kind == 0 || r->kind >= KEV_KINDS || r->kind == KEV_OWN_WORK)
			continue;
		if (in_own_work(own, nr_own, r)) {
			k->own_work[r->kind]++;
			continue;
		}
		k->counts[r->kind] += r->kind == KEV_LOST ? (uint64_t)r->value : 1;
		if (r->kind == KEV_LOST)
			continue;
		if (r->kind != KEV_WAKEUP || is_own(tids, nr_tids, r->tid))
			k->refs[k->nr_refs++] = (struct tr_kev_ref){ r->tid, (uint32_t)i };
		if (r->kind == KEV_WAKEUP && (uint32_t)r->value != r->tid &&
		    is_own(tids, nr_tids, (uint32_t)r->value))
			k->refs[k->nr_refs++] = (struct tr_kev_ref){ (uint32_t)r->value,
								     (uint32_t)i };
	}
}

/* Each switch out to the next return of the same thread. */
static void add_off_cpu(struct tr_kevents *k)
{
	uint64_t out = 0;
	uint32_t tid = 0;

	for (size_t i = 0; i < k->nr_refs; i++) {
		const struct kev_record *r = &k->recs[k->refs[i].idx];

		if (k->refs[i].tid != tid)
			out = 0;
		tid = k->refs[i].tid;
		if (r->kind == KEV_SWITCH_OUT)
			out = r->time;
		else if (r->kind == KEV_SWITCH_IN && out) {
			k->off_cpu_ns += r->time - out;
			out = 0;
		}
	}
}

static int index_threads(struct tr_kevents *k)
{
	size_t nr_tids, nr_own;
	uint32_t *tids = own_threads(k, &nr_tids);
	struct own_work *own;
	int no_room = own_work_windows(k, &own, &nr_own);

	k->refs = malloc((k->nr ? 2 * k->nr : 1) * sizeof(*k->refs));
	if (!tids || !k->refs || no_room) {
		free(tids);
		free(own);
		return -1;
	}
	add_refs(k, tids, nr_tids, own, nr_own);
	free(tids);
	free(own);
	sort_recs = k->recs;
	qsort(k->refs, k->nr_refs, sizeof(*k->refs), by_thread_time);
	add_off_cpu(k);
	return 0;
}

int tr_kevents_read(const char *dir, struct tr_kevents *k)
{
	char path[4200];
	int fd, err;

	memset(k, 0, sizeof(*k));
	snprintf(path, sizeof(path), "%s/kevents", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT) {
			k->present = 1;
			snprintf(k->bad, sizeof(k->bad), "%s", strerror(errno));
		}
		return 0;
	}
	k->present = 1;
	err = load(fd, k);
	close(fd);
	return err || index_threads(k) ? -1 : 0;
}

void tr_kevents_free(struct tr_kevents *k)
{
	free(k->recs);
	free(k->refs);
	memset(k, 0, sizeof(*k));
}

const struct tr_kev_ref *tr_kevents_of(const struct tr_kevents *k, uint32_t tid, size_t *nr)
{
	size_t lo = 0, hi = k->nr_refs, first;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (k->refs[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	while (lo < k->nr_refs && k->refs[lo].tid == tid)
		lo++;
	*nr = lo - first;
	return *nr ? &k->refs[first] : NULL;
}

/* The kernel's reported task states, bit by bit (task_state_to_char), and
 * TASK_REPORT_MAX above them: preempted while running. */
static const char *const state_names[] = {
	"sleeping", "disk sleep", "stopped", "tracing stop", "dead", "zombie", "parked", "idle",
};

static int state_bit(uint32_t s)
{
	s &= ~KEV_STATE_PREEMPTED;
	for (int i = 0; i < 8; i++)
		if (s & 1u << i)
			return i;
	return s ? 8 : -1;	/* 8: TASK_REPORT_MAX, preempted */
}

const char *tr_kev_state(uint32_t prev_state)
{
	static const char *const one[] = { "S", "D", "T", "t", "X", "Z", "P", "I", "R+" };
	int b = state_bit(prev_state);

	return b < 0 ? "R" : one[b];
}

const char *tr_kev_state_name(uint32_t prev_state)
{
	int b = state_bit(prev_state);

	return b < 0 ? "runnable" : b == 8 ? "preempted" : state_names[b];
}

/* ---- a thread's time off the CPU ---- */

int tr_off_cpu_init(const struct tr_kevents *k, const struct tr_kev_ref *refs, size_t nr,
		    struct tr_off_cpu *o)
{
	uint64_t out = 0, sum = 0;

	memset(o, 0, sizeof(*o));
	if (!refs)
		return 0;
	o->out = malloc(nr * sizeof(*o->out));
	o->in = malloc(nr * sizeof(*o->in));
	o->before = malloc(nr * sizeof(*o->before));
	if (!o->out || !o->in || !o->before) {
		tr_off_cpu_free(o);
		return -1;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct kev_record *r = &k->recs[refs[i].idx];

		if (r->kind == KEV_SWITCH_OUT) {
			out = r->time;
		} else if (r->kind == KEV_SWITCH_IN && out) {
			o->out[o->nr] = out;
			o->in[o->nr] = r->time;
			o->before[o->nr++] = sum;
			sum += r->time - out;
			out = 0;
		}
	}
	return 0;
}

void tr_off_cpu_free(struct tr_off_cpu *o)
{
	free(o->out);
	free(o->in);
	free(o->before);
	memset(o, 0, sizeof(*o));
}

/* Off the CPU before time t: the whole spans that began before it, the
 * last one cut at t. */
static uint64_t off_until(const struct tr_off_cpu *o, uint64_t t)
{
	size_t lo = 0, hi = o->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (o->out[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	lo--;
	return o->before[lo] + (t < o->in[lo] ? t : o->in[lo]) - o->out[lo];
}

uint64_t tr_off_cpu_between(const struct tr_off_cpu *o, uint64_t start, uint64_t end)
{
	return end > start ? off_until(o, end) - off_until(o, start) : 0;
}

/* ---- their text ---- */

/* An int's -100 (AT_FDCWD) is only its low 32 bits in the register. */
static size_t value_text(uint64_t v, char *buf, size_t len)
{
	int64_t s = (int64_t)v;
	int n;

	if (s < 0 && s >= -4095)
		n = snprintf(buf, len, "%" PRId64, s);
	else if (v >> 32 == 0 && (int32_t)v < 0 && (int32_t)v >= -4095)
		n = snprintf(buf, len, "%" PRId32, (int32_t)v);
	else if (v < 1u << 20)
		n = snprintf(buf, len, "%" PRIu64, v);
	else
		n = snprintf(buf, len, "0x%" PRIx64, v);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

const char *tr_kev_call_name(const struct tr_kevents *k, unsigned nr, char *buf, size_t len)
{
	return syscall_name_of(k->arch, nr, buf, len);
}

const char *tr_kev_call_text(const struct tr_kevents *k, const struct kev_record *enter,
			     char *buf, size_t len)
{
	char name[32];
	int n = snprintf(buf, len, "%s(", tr_kev_call_name(k, enter->nr, name, sizeof(name)));
	size_t at = n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;

	for (int i = 0; i < 3 && at + 3 < len; i++) {
		if (i) {
			memcpy(buf + at, ", ", 2);
			at += 2;
		}
		at += value_text(enter->args[i], buf + at, len - at);
	}
	snprintf(buf + at, len - at, ")");
	return buf;
}

const char *tr_kev_return_text(int64_t ret, char *buf, size_t len)
{
	const char *name = ret < 0 && ret >= -4095 ? strerrorname_np((int)-ret) : NULL;

	if (name)
		snprintf(buf, len, "%" PRId64 " %s", ret, name);
	else
		value_text((uint64_t)ret, buf, len);
	return buf;
}

const char *tr_kev_task_text(const char *comm, uint32_t tid, char *buf, size_t len)
{
	if (comm)
		snprintf(buf, len, "%s-%u", comm, tid);
	else
		snprintf(buf, len, "pid %u", tid);
	return buf;
}
