// SPDX-License-Identifier: GPL-2.0
/*
 * The per-function profile (--stat, --csv): the kernel's
 * trace_stat/function table (Hit, Time, Avg, s^2) with a Self column.
 *
 * Threads are read one after the other, each in one pass, against a
 * shadow of its call stack; nothing is kept per event.  The rules:
 *  - every entry is a hit, even one that never returns;
 *  - Time counts only the outermost activation of a function on a
 *    thread, so recursion is not counted twice;
 *  - Self is a call's time minus the time of the traced calls it made;
 *    summed over every activation, recursion included, it counts each
 *    nanosecond once;
 *  - calls still open when their thread's trace ends (or when lost
 *    events hid their return) are counted up to the thread's last event
 *    (the loss): their Time and Self, but not s^2, whose samples are the
 *    durations of calls seen to return;
 *  - whole calls (tracing_thresh), which come after the calls they made,
 *    are counted once their callers are known (whole_calls.h), by the
 *    same rules.  The calls shorter than the threshold are not in the
 *    trace: a whole call's Self holds their time.
 * Functions are keyed by name, so the same function in several processes
 * of the trace is one row.  The rows come by total time (by hits for the
 * function tracer), or in --sort's order.  The calls counted are those
 * the report's rules show (report_select.h).
 */
#include "report_int.h"
#include "whole_calls.h"
#include "../common/array.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct stat_row {
	char *name;
	const char *srcline;		/* --srcline: where, if known */
	uint64_t hits, total, self;
	uint64_t off_cpu;		/* of total: the thread off the CPU */
	uint64_t samples, sum;		/* returned calls, for s^2 */
	unsigned __int128 sum_sq;
};

struct stat_frame {
	int row;			/* -1: entered while events were lost */
	uint64_t start, child;
};

struct profile {
	struct report *r;
	int timed;			/* a graph trace: calls have durations */
	struct stat_row *rows;
	unsigned nr_rows;
	size_t cap_rows;		/* of rows and of active */
	unsigned *slots;		/* name hash: row + 1, 0 if free */
	unsigned nr_slots;
	unsigned *active;		/* per row: open activations on this thread */
	unsigned **row_of;		/* per process, per function id: row + 1 */
	struct stat_frame *stack;
	unsigned depth;
	size_t cap_stack;
	int sched;			/* record -e sched: the time off CPU known */
	struct tr_off_cpu off;		/* the thread's, if so */
	struct whole_calls whole;	/* whole calls waiting for their callers */
	unsigned whole_level;		/* of the whole call being counted */
};

/* ---- rows, found by name ---- */

static unsigned hash_name(const char *s)
{
	unsigned h = 2166136261u;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static unsigned *slot_of(const struct profile *p, const char *name)
{
	unsigned i = hash_name(name) & (p->nr_slots - 1);

	while (p->slots[i] && strcmp(p->rows[p->slots[i] - 1].name, name))
		i = (i + 1) & (p->nr_slots - 1);
	return &p->slots[i];
}

/* Keeps the hash at most half full so probes stay short. */
static int grow_slots(struct profile *p)
{
	unsigned old = p->nr_slots, *old_slots = p->slots;

	p->nr_slots = old ? 2 * old : 64;
	p->slots = calloc(p->nr_slots, sizeof(*p->slots));
	if (!p->slots) {
		p->slots = old_slots;
		p->nr_slots = old;
		return -1;
	}
	for (unsigned i = 0; i < old; i++)
		if (old_slots[i])
			*slot_of(p, p->rows[old_slots[i] - 1].name) = old_slots[i];
	free(old_slots);
	return 0;
}

/* Rows and their per-row open counts grow together; cap_rows moves only
 * once both have, so that a failure leaves it true of each. */
static int grow_rows(struct profile *p)
{
	size_t cap = p->cap_rows;

	if (grow_array((void **)&p->rows, &cap, p->nr_rows + 1, sizeof(*p->rows)))
		return -1;
	cap = p->cap_rows;
	if (grow_array((void **)&p->active, &cap, p->nr_rows + 1, sizeof(*p->active)))
		return -1;
	p->cap_rows = cap;
	return 0;
}

static int add_row(struct profile *p, const char *name)
{
	if ((p->nr_rows + 1) * 2 > p->nr_slots && grow_slots(p))
		return -1;
	if (p->nr_rows == p->cap_rows && grow_rows(p))
		return -1;
	memset(&p->rows[p->nr_rows], 0, sizeof(*p->rows));
	p->rows[p->nr_rows].name = strdup(name);
	if (!p->rows[p->nr_rows].name)
		return -1;
	*slot_of(p, name) = p->nr_rows + 1;
	return p->nr_rows++;
}

static int row_by_name(struct profile *p, const char *name)
{
	unsigned *slot = p->nr_slots ? slot_of(p, name) : NULL;

	return slot && *slot ? (int)*slot - 1 : add_row(p, name);
}

/* Ids map to rows through a per-process cache: names are hashed once. */
static int row_by_func(struct profile *p, const struct tr_thread *th, uint32_t id)
{
	const struct tr_process *proc = th->proc;
	unsigned **cache = &p->row_of[proc - p->r->td.procs];
	char buf[REPORT_NAME_LEN];
	int row;

	if (id >= proc->nr_funcs)
		return row_by_name(p, report_func_name(th, id, buf, sizeof(buf)));
	if (!*cache && !(*cache = calloc(proc->nr_funcs, sizeof(**cache))))
		return -1;
	if ((*cache)[id])
		return (*cache)[id] - 1;
	row = row_by_name(p, report_func_name(th, id, buf, sizeof(buf)));
	if (row >= 0) {
		(*cache)[id] = row + 1;
		if (!p->rows[row].srcline)
			p->rows[row].srcline = report_srcline(p->r, th, id);
	}
	return row;
}

/* ---- one thread's calls ---- */

static int push(struct profile *p, int row, uint64_t start)
{
	if (grow_array((void **)&p->stack, &p->cap_stack, p->depth + 1, sizeof(*p->stack)))
		return -1;
	p->stack[p->depth++] = (struct stat_frame) { .row = row, .start = start };
	if (row >= 0)
		p->active[row]++;
	return 0;
}

/* Closes the innermost call at time end; returned: end is its real exit. */
static void pop(struct profile *p, uint64_t end, int returned)
{
	struct stat_frame f = p->stack[--p->depth];
	uint64_t dur = end > f.start ? end - f.start : 0;
	struct stat_row *row;

	if (f.row < 0)
		return;	/* its entry time is unknown: nothing to count */
	row = &p->rows[f.row];
	row->self += dur > f.child ? dur - f.child : 0;
	if (--p->active[f.row] == 0) {
		row->total += dur;
		row->off_cpu += tr_off_cpu_between(&p->off, f.start, end);
	}
	if (returned) {
		row->samples++;
		row->sum += dur;
		row->sum_sq += (unsigned __int128)dur * dur;
	}
	if (p->depth)
		p->stack[p->depth - 1].child += dur;
}

static int on_entry(struct profile *p, const struct tr_thread *th,
		    const struct tr_event *ev)
{
	int row = row_by_func(p, th, ev->func);

	if (row < 0)
		return -1;
	p->rows[row].hits++;
	return push(p, row, ev->time);
}

static int on_func(struct profile *p, const struct tr_thread *th,
		   const struct tr_event *ev)
{
	int row = row_by_func(p, th, ev->func);

	if (row < 0)
		return -1;
	p->rows[row].hits++;
	return 0;
}

/* A whole call, its callers known now: a call of its row, and the calls
 * below it, as pop() counts them.  The outermost one's time is its
 * caller's, the open frame it was called from. */
static int whole_enter(void *arg, const struct whole_node *n)
{
	struct profile *p = arg;
	struct stat_row *row;

	if (p->whole_level++ == 0 && p->depth)
		p->stack[p->depth - 1].child += n->total;
	if (n->key == WHOLE_UNKNOWN)
		return 0;	/* a caller the trace does not name */
	row = &p->rows[n->key];
	row->hits += n->calls;
	row->samples += n->calls;
	row->sum += n->total;
	row->sum_sq += n->total_sq;
	row->self += n->self;
	if (p->active[n->key]++ == 0)
		row->total += n->total;
	return 0;
}

static void whole_leave(void *arg, const struct whole_node *n)
{
	struct profile *p = arg;

	p->whole_level--;
	if (n->key != WHOLE_UNKNOWN)
		p->active[n->key]--;
}

static int on_call(struct profile *p, const struct tr_thread *th, const struct tr_event *ev)
{
	const struct whole_visitor v = { whole_enter, whole_leave, p };
	int row = row_by_func(p, th, ev->func);

	if (row < 0)
		return -1;
	return whole_calls_add(&p->whole, row, ev->depth, ev->value, p->depth, &v);
}

/* The same resync as the graph view: frames beyond the resumed depth
 * returned unseen (counted up to now), missing ones are unknown. */
static int on_lost(struct profile *p, struct report_thread *rt,
		   const struct tr_event *ev)
{
	uint32_t depth = tr_resume_depth(ev);

	report_count_lost(rt, ev);
	while (p->depth > depth)
		pop(p, ev->time, 0);
	while (p->depth < depth)
		if (push(p, -1, ev->time))
			return -1;
	return 0;
}

static int on_event(struct profile *p, struct report_thread *rt,
		    const struct tr_event *ev)
{
	switch (ev->type) {
	case TR_ENTRY:
		return on_entry(p, rt->th, ev);
	case TR_EXIT:
		if (p->depth)
			pop(p, ev->time, 1);
		break;
	case TR_FUNC:
		return on_func(p, rt->th, ev);
	case TR_CALL:
		return on_call(p, rt->th, ev);
	case TR_LOST:
		return on_lost(p, rt, ev);
	case TR_MARKER:
	case TR_STACK:
		break;
	}
	return 0;
}

/* The thread's times off the CPU, its program's (kevents_exec.c). */
static int off_cpu_init(struct profile *p, const struct tr_thread *th)
{
	size_t nr;
	const struct tr_kev_ref *refs = tr_thread_kevents(&p->r->td, th, &nr);

	return tr_off_cpu_init(&p->r->td.kev, refs, nr, &p->off);
}

static int profile_thread(struct profile *p, struct report_thread *rt)
{
	struct sel_cursor c;
	struct tr_event ev;
	uint64_t last = 0;
	int err = 0;

	if (p->sched && off_cpu_init(p, rt->th))
		return -1;
	sel_cursor_init(&c, &p->r->sel, rt->th);
	while (!err && sel_cursor_next(&c, &ev)) {
		last = ev.time > last ? ev.time : last;
		err = on_event(p, rt, &ev);
	}
	sel_cursor_free(&c);
	if (!err) {
		const struct whole_visitor v = { whole_enter, whole_leave, p };

		err = whole_calls_flush(&p->whole, p->depth, &v);
	}
	while (p->depth)
		pop(p, last, 0);
	tr_off_cpu_free(&p->off);
	return err;
}

/* ---- the table ---- */

static uint64_t key_value(const struct stat_row *row, enum report_sort_key key)
{
	switch (key) {
	case REPORT_SORT_TOTAL:
		return row->total;
	case REPORT_SORT_SELF:
		return row->self;
	case REPORT_SORT_HITS:
		return row->hits;
	case REPORT_SORT_AVG:
		return row->hits ? row->total / row->hits : 0;
	case REPORT_SORT_NAME:
		break;
	}
	return 0;
}

struct sort_order {
	const enum report_sort_key *keys;
	unsigned nr;
};

/* The keys in turn, numbers largest first, names A to Z; the name
 * settles what the keys leave equal. */
static int by_keys(const void *a, const void *b, void *arg)
{
	const struct sort_order *order = arg;
	const struct stat_row *x = a, *y = b;

	for (unsigned i = 0; i < order->nr; i++) {
		uint64_t vx, vy;

		if (order->keys[i] == REPORT_SORT_NAME)
			return strcmp(x->name, y->name);
		vx = key_value(x, order->keys[i]);
		vy = key_value(y, order->keys[i]);
		if (vx != vy)
			return vx > vy ? -1 : 1;
	}
	return strcmp(x->name, y->name);
}

/* By time when calls have durations; without them (the function tracer)
 * the hits are what matter. */
static void sort_rows(struct profile *p)
{
	static const enum report_sort_key by_total = REPORT_SORT_TOTAL,
					  by_hits = REPORT_SORT_HITS;
	struct sort_order order = { p->timed ? &by_total : &by_hits, 1 };

	if (p->r->opt->nr_sort)
		order = (struct sort_order) { p->r->opt->sort, p->r->opt->nr_sort };
	if (p->nr_rows > 1)
		qsort_r(p->rows, p->nr_rows, sizeof(*p->rows), by_keys, &order);
}

/* The kernel's s^2 (function_stat_show): the sample variance in ns^2 /
 * 1000, which the duration format turns into us^2. */
static uint64_t variance(const struct stat_row *row)
{
	unsigned __int128 n = row->samples, v;

	if (n <= 1)
		return 0;
	v = (n * row->sum_sq - (unsigned __int128)row->sum * row->sum) /
	    (n * (n - 1) * 1000);
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

static size_t add_cell(char *line, size_t size, size_t len, const char *text)
{
	int n = snprintf(line + len, size - len, "    %s", text);

	return n < 0 || (size_t)n >= size - len ? size - 1 : len + n;
}

static size_t add_duration(char *line, size_t size, size_t len, uint64_t ns)
{
	char buf[REPORT_DURATION_LEN];

	return add_cell(line, size, len, report_format_duration(buf, sizeof(buf), ns));
}

static void print_row(FILE *out, const struct stat_row *row, int timed, int sched,
		      int srcline)
{
	char line[512];
	size_t len = snprintf(line, sizeof(line), "  %-30.30s  %10" PRIu64,
			      row->name, row->hits);

	if (timed) {
		len = add_duration(line, sizeof(line), len, row->total);
		len = add_duration(line, sizeof(line), len, row->total / row->hits);
		len = add_duration(line, sizeof(line), len, variance(row));
		len = add_duration(line, sizeof(line), len, row->self);
		if (sched) {
			len = add_duration(line, sizeof(line), len, row->total - row->off_cpu);
			len = add_duration(line, sizeof(line), len, row->off_cpu);
		}
	} else {
		for (int i = 0; i < 4; i++)
			len = add_cell(line, sizeof(line), len, "-           ");
	}
	if (srcline)
		len = add_cell(line, sizeof(line), len, row->srcline ? row->srcline : "-");
	/* The duration cells pad to their width; the last needs none. */
	while (len && line[len - 1] == ' ')
		len--;
	fprintf(out, "%.*s\n", (int)len, line);
}

static void print_table(const struct profile *p)
{
	int srcline = p->r->srclines != NULL, sched = p->sched && p->timed;

	report_print_cut(p->r);
	fprintf(p->r->out, "  Function                               Hit    Time            "
		"Avg             s^2             Self%s%s\n"
		"  --------                               ---    ----            "
		"---             ---             ----%s%s\n",
		sched ? "            On CPU          Off CPU" : "",
		srcline ? "            Source" : "",
		sched ? "            ------          -------" : "",
		srcline ? "            ------" : "");
	for (unsigned i = 0; i < p->nr_rows; i++)
		print_row(p->r->out, &p->rows[i], p->timed, sched, srcline);
}

/* RFC 4180: quote a field holding a comma, a quote or a line break. */
static void print_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void print_csv(const struct profile *p)
{
	FILE *out = p->r->out;

	int srcline = p->r->srclines != NULL;

	fprintf(out, "function,hits,total_ns,self_ns,avg_ns%s%s\n",
		p->sched ? ",on_cpu_ns,off_cpu_ns" : "", srcline ? ",srcline" : "");
	for (unsigned i = 0; i < p->nr_rows; i++) {
		const struct stat_row *row = &p->rows[i];

		print_csv_field(out, row->name);
		if (p->timed)
			fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
				row->hits, row->total, row->self, row->total / row->hits);
		else
			fprintf(out, ",%" PRIu64 ",,,", row->hits);
		if (p->sched && p->timed)
			fprintf(out, ",%" PRIu64 ",%" PRIu64, row->total - row->off_cpu,
				row->off_cpu);
		else if (p->sched)
			fputs(",,", out);
		if (srcline) {
			fputc(',', out);
			print_csv_field(out, row->srcline ? row->srcline : "");
		}
		fputc('\n', out);
	}
}

static void profile_free(struct profile *p)
{
	for (unsigned i = 0; i < p->nr_rows; i++)
		free(p->rows[i].name);
	for (unsigned i = 0; p->row_of && i < p->r->td.nr_procs; i++)
		free(p->row_of[i]);
	free(p->row_of);
	free(p->rows);
	free(p->slots);
	free(p->active);
	free(p->stack);
	whole_calls_free(&p->whole);
}

int report_stat(struct report *r)
{
	struct profile p = { .r = r };
	int err = 0;

	p.timed = strcmp(r->td.info.tracer, "function") != 0;
	p.sched = r->td.kev.counts[KEV_SWITCH_OUT] != 0;
	p.row_of = calloc(r->td.nr_procs ? r->td.nr_procs : 1, sizeof(*p.row_of));
	if (!p.row_of)
		return -1;
	for (unsigned i = 0; !err && i < r->nr_threads; i++)
		err = profile_thread(&p, &r->threads[i]);
	if (!err) {
		sort_rows(&p);
		if (r->opt->csv)
			print_csv(&p);
		else
			print_table(&p);
	}
	profile_free(&p);
	return err;
}
