// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's events (record -e) among a thread's calls in the
 * function_graph view, each where it happened in the thread's time: a
 * system call as a line inside the function that made it, as a call
 * whose return value is known,
 *
 *  1)  kev_wai-4606  |   2.113 us    |    getppid(0, 0, 0) = 4605
 *  1)  kev_wai-4606  |               |    read(3, 0x7ffd5e0c1a17, 1) {
 *
 * with a context switch inside it as the kernel's banner, saying where the
 * thread went, in which state, for how long, and who woke it:
 *
 *  ------------------------------------------
 *  1)  kev_wai-4606  =>    <idle>-0     S (sleeping) 30012.51 us off CPU, woken by kev_waits-4607
 *  ------------------------------------------
 *
 * and the call's closing brace, its duration in the column, its name and
 * what it returned in the comment a function's brace has ("read = 1").
 * A wake-up the thread made, and a page fault, are comments.  A thread
 * with kernel events and no call (-F left it none) shows them all the
 * same, named "<...>" as the kernel names a task it has no name for.
 */
#include "report_graph.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct kev_record *rec_of(const struct graph *g, const struct tr_kev_ref *ref)
{
	return &g->r->td.kev.recs[ref->idx];
}

static uint64_t next_time(const struct graph *g);

/* Thread ti: one of the report's, or past them one with kernel events
 * alone. */
static const struct tr_thread *th_of(const struct graph *g, unsigned ti)
{
	return ti < g->r->nr_threads ? g->r->threads[ti].th : &g->kev_only[ti - g->r->nr_threads];
}

static struct graph_thread *gt_of(const struct graph *g, unsigned ti)
{
	return ti < g->r->nr_threads ? &g->threads[ti] : &g->kev_only_gt[ti - g->r->nr_threads];
}

static unsigned nr_all(const struct graph *g)
{
	return g->r->nr_threads + g->nr_kev_only;
}

/* The thread's kernel events, those --time-range keeps. */
static void find_events(struct graph *g, unsigned ti)
{
	struct graph_thread *gt = gt_of(g, ti);

	gt->kev = tr_thread_kevents(&g->r->td, th_of(g, ti), &gt->nr_kev);
	gt->next_kev = 0;
	gt->sys.entry = NULL;
	while (gt->nr_kev && rec_of(g, &gt->kev[gt->nr_kev - 1])->time > g->r->sel.to)
		gt->nr_kev--;
	while (gt->next_kev < gt->nr_kev && rec_of(g, &gt->kev[gt->next_kev])->time < g->r->sel.from)
		gt->next_kev++;
}

static int in_trace(const struct trace_data *td, uint32_t tid)
{
	for (unsigned i = 0; i < td->nr_threads; i++)
		if (td->threads[i].tid == tid)
			return 1;
	return 0;
}

/* The threads with kernel events and no call, --tid's if it names some;
 * named "<...>" as the kernel names a task it has no name for. */
static int find_kev_only(struct graph *g)
{
	const struct tr_kevents *k = &g->r->td.kev;
	const struct report_options *o = g->r->opt;

	for (size_t i = 0; i < k->nr_refs; i++) {
		const struct kev_record *r = &k->recs[k->refs[i].idx];
		uint32_t tid = k->refs[i].tid;
		struct tr_thread *th;

		if ((i && k->refs[i - 1].tid == tid) || in_trace(&g->r->td, tid) ||
		    !tr_tid_chosen(o->tids, o->nr_tids, tid))
			continue;
		th = realloc(g->kev_only, (g->nr_kev_only + 1) * sizeof(*th));
		if (!th)
			return -1;
		g->kev_only = th;
		th[g->nr_kev_only++] = (struct tr_thread){
			.pid = r->kind == KEV_WAKEUP ? 0 : r->pid, .tid = tid, .comm = "<...>" };
	}
	g->kev_only_gt = calloc(g->nr_kev_only + 1, sizeof(*g->kev_only_gt));
	return g->kev_only_gt ? 0 : -1;
}

int graph_kev_init(struct graph *g)
{
	if (g->r->td.kev.nr_refs && find_kev_only(g))
		return -1;
	for (unsigned i = 0; i < nr_all(g); i++)
		find_events(g, i);
	g->kev_next = next_time(g);
	return 0;
}

void graph_kev_free(struct graph *g)
{
	free(g->kev_only);
	free(g->kev_only_gt);
	g->kev_only = NULL;
	g->kev_only_gt = NULL;
	g->nr_kev_only = 0;
}

int graph_kev_before(const struct graph *g, unsigned ti, uint64_t t)
{
	const struct graph_thread *gt = gt_of(g, ti);

	return gt->next_kev < gt->nr_kev && rec_of(g, &gt->kev[gt->next_kev])->time < t;
}

/* What the runtime's start-up and dlopen work made, left out. */
static void own_work_said(const struct report *r)
{
	const uint64_t *n = r->td.kev.own_work;

	if (!n[KEV_SYS_ENTER] && !n[KEV_FAULT])
		return;
	fprintf(r->out, "; fntrace's own work left out: %" PRIu64 " system calls, %" PRIu64
		" page faults", n[KEV_SYS_ENTER], n[KEV_FAULT]);
}

void graph_kev_header(const struct report *r)
{
	const uint64_t *n = r->td.kev.counts;

	if (!r->td.kev.present)
		return;
	fprintf(r->out, "# kernel events: %" PRIu64 " system calls, %" PRIu64 " context switches, %"
		PRIu64 " wake-ups, %" PRIu64 " page faults", n[KEV_SYS_ENTER], n[KEV_SWITCH_OUT],
		n[KEV_WAKEUP], n[KEV_FAULT]);
	if (n[KEV_LOST])
		fprintf(r->out, "; %" PRIu64 " lost (a CPU's ring was full)", n[KEV_LOST]);
	if (r->td.info.snapshot.kev_lost_before)
		fprintf(r->out, "; %" PRIu64 " lost before the snapshot's window",
			r->td.info.snapshot.kev_lost_before);
	own_work_said(r);
	fputc('\n', r->out);
}

/* ---- the text ---- */

/* The name the recording has for a task at its event's time (an exec
 * renames it; "<...>" for a thread with kernel events alone), or NULL. */
static const char *comm_of(const struct graph *g, uint32_t tid, uint64_t time)
{
	const char *comm = tr_comm_at(&g->r->td, tid, time);

	for (unsigned i = 0; !comm && i < g->nr_kev_only; i++)
		if (g->kev_only[i].tid == tid)
			return g->kev_only[i].comm;
	return comm;
}

static void print_task(const struct graph *g, FILE *out, uint32_t tid, uint64_t time)
{
	char buf[64];

	fputs(tr_kev_task_text(comm_of(g, tid, time), tid, buf, sizeof(buf)), out);
}

static void prologue(struct graph *g, unsigned ti, const struct kev_record *rec)
{
	const struct tr_thread *th = th_of(g, ti);
	unsigned show = g->r->show;

	if (show & REPORT_SHOW_ABSTIME)
		graph_print_abstime(g->out, rec->time);
	if (show & REPORT_SHOW_CPU)
		graph_print_cpu(g, rec->cpu);
	if (show & REPORT_SHOW_PROC) {
		graph_print_proc(g->out, th->comm, th->tid);
		fputs(" | ", g->out);
	}
}

static unsigned depth_of(const struct graph *g, unsigned ti)
{
	const struct graph_thread *gt = gt_of(g, ti);

	return gt->depth + (gt->sys.entry != NULL);
}

/* ---- the events ---- */

/* The entry, and its exit if nothing else of the thread comes between
 * them (before t): one line, or an open brace. */
static void on_enter(struct graph *g, unsigned ti, const struct kev_record *rec, uint64_t t)
{
	struct graph_thread *gt = gt_of(g, ti);
	const struct kev_record *exit = NULL;
	char text[256];

	if (gt->next_kev < gt->nr_kev) {
		exit = rec_of(g, &gt->kev[gt->next_kev]);
		if (exit->kind != KEV_SYS_EXIT || exit->nr != rec->nr || exit->time >= t)
			exit = NULL;
	}
	prologue(g, ti, rec);
	if (exit)
		graph_print_duration(g, rec->time, exit->time);
	else
		graph_print_no_duration(g);
	graph_print_indent(g->out, depth_of(g, ti));
	fputs(tr_kev_call_text(&g->r->td.kev, rec, text, sizeof(text)), g->out);
	if (!exit) {
		fputs(" {\n", g->out);
		gt->sys.entry = rec;
		return;
	}
	fprintf(g->out, " = %s\n", tr_kev_return_text(exit->value, text, sizeof(text)));
	gt->next_kev++;
}

/* The brace of a call whose lines came between; one whose entry came
 * before the recording (execve's) has no duration. */
static void on_exit_call(struct graph *g, unsigned ti, const struct kev_record *rec)
{
	struct graph_thread *gt = gt_of(g, ti);
	const struct kev_record *entry = gt->sys.entry;
	char buf[32], ret[64];

	if (entry && entry->nr != rec->nr)
		entry = NULL;
	gt->sys.entry = NULL;
	prologue(g, ti, rec);
	if (entry)
		graph_print_duration(g, entry->time, rec->time);
	else
		graph_print_no_duration(g);
	graph_print_indent(g->out, depth_of(g, ti));
	fprintf(g->out, "} /* %s = %s */\n",
		tr_kev_call_name(&g->r->td.kev, rec->nr, buf, sizeof(buf)),
		tr_kev_return_text(rec->value, ret, sizeof(ret)));
}

/* The thread's return to a CPU after the switch at gt->kev[at - 1], and
 * who woke it meanwhile (the last wake-up before the return). */
static const struct kev_record *back_in(const struct graph *g, unsigned ti, size_t at,
					const struct kev_record **waker)
{
	const struct graph_thread *gt = gt_of(g, ti);
	uint32_t tid = th_of(g, ti)->tid;

	*waker = NULL;
	for (; at < gt->nr_kev; at++) {
		const struct kev_record *r = rec_of(g, &gt->kev[at]);

		if (r->kind == KEV_SWITCH_IN)
			return r;
		if (r->kind == KEV_WAKEUP && (uint32_t)r->value == tid)
			*waker = r;
		if (r->kind == KEV_SWITCH_OUT)
			break;
	}
	return NULL;
}

static void on_switch(struct graph *g, unsigned ti, const struct kev_record *rec)
{
	const struct tr_thread *th = th_of(g, ti);
	const struct kev_record *waker, *in = back_in(g, ti, gt_of(g, ti)->next_kev, &waker);
	char comm[17] = "", dur[REPORT_DURATION_LEN];

	memcpy(comm, rec->args, 16);
	fputs(" ------------------------------------------\n", g->out);
	graph_print_cpu(g, rec->cpu);
	graph_print_proc(g->out, th->comm, th->tid);
	fputs(" => ", g->out);
	graph_print_proc(g->out, rec->value ? comm : "<idle>", (uint32_t)rec->value);
	fprintf(g->out, " %s (%s)", tr_kev_state(rec->nr), tr_kev_state_name(rec->nr));
	if (in) {
		size_t n = strlen(report_format_duration(dur, sizeof(dur), in->time - rec->time));

		while (n && dur[n - 1] == ' ')
			dur[--n] = 0;
		fprintf(g->out, " %s off CPU", dur);
	} else {
		fputs(", not back in the recording", g->out);
	}
	if (waker) {
		fputs(", woken by ", g->out);
		print_task(g, g->out, waker->tid, waker->time);
	}
	fputs("\n ------------------------------------------\n\n", g->out);
}

static void on_comment(struct graph *g, unsigned ti, const struct kev_record *rec)
{
	prologue(g, ti, rec);
	graph_print_no_duration(g);
	graph_print_indent(g->out, depth_of(g, ti));
	if (rec->kind == KEV_FAULT) {
		fprintf(g->out, "/* page fault at 0x%" PRIx64 ", ip 0x%" PRIx64 ", error 0x%"
			PRIx64 " */\n", rec->args[0], rec->args[1], rec->args[2]);
		return;
	}
	fputs("/* wakes ", g->out);
	print_task(g, g->out, (uint32_t)rec->value, rec->time);
	fprintf(g->out, " on CPU %u */\n", rec->nr);
}

/* Thread ti's events before limit; a system call is one line if its
 * return comes before the thread's next call (bound). */
static void flush_thread(struct graph *g, unsigned ti, uint64_t limit, uint64_t bound)
{
	struct graph_thread *gt = gt_of(g, ti);
	uint32_t tid = th_of(g, ti)->tid;

	while (graph_kev_before(g, ti, limit)) {
		const struct kev_record *rec = rec_of(g, &gt->kev[gt->next_kev++]);

		switch (rec->kind) {
		case KEV_SYS_ENTER:
			on_enter(g, ti, rec, bound);
			break;
		case KEV_SYS_EXIT:
			on_exit_call(g, ti, rec);
			break;
		case KEV_SWITCH_OUT:
			on_switch(g, ti, rec);
			break;
		case KEV_WAKEUP:	/* of this thread: said with its switch */
			if (rec->tid == tid && (uint32_t)rec->value != tid)
				on_comment(g, ti, rec);
			break;
		case KEV_FAULT:
			on_comment(g, ti, rec);
			break;
		}
	}
}

static uint64_t next_of(const struct graph *g, unsigned ti)
{
	const struct graph_thread *gt = gt_of(g, ti);

	return gt->next_kev < gt->nr_kev ? rec_of(g, &gt->kev[gt->next_kev])->time : UINT64_MAX;
}

/* The earliest of the events not printed yet, of every thread. */
static uint64_t next_time(const struct graph *g)
{
	uint64_t next = UINT64_MAX;

	for (unsigned i = 0; i < nr_all(g); i++)
		if (next_of(g, i) < next)
			next = next_of(g, i);
	return next;
}

/* When thread ti calls next: the event being shown (cur's, at t), or
 * the next its cursor holds; never, for a thread of kernel events alone. */
static uint64_t next_call(struct graph *g, unsigned ti, unsigned cur, uint64_t t)
{
	const struct tr_event *ev;

	if (ti == cur)
		return t;
	if (ti >= g->r->nr_threads)
		return UINT64_MAX;
	ev = sel_cursor_peek(&g->merge.cursors[ti]);
	return ev ? ev->time : UINT64_MAX;
}

/* The threads' events before t, in time order: the earliest thread's up
 * to the next thread's first, and again.  A look at every thread only
 * when one has something to print: kernel events are few beside the
 * calls. */
void graph_kev_flush(struct graph *g, unsigned cur, uint64_t t)
{
	if (t <= g->kev_next)
		return;
	for (;;) {
		uint64_t t1 = UINT64_MAX, t2 = UINT64_MAX;
		unsigned first = 0;

		for (unsigned i = 0; i < nr_all(g); i++) {
			uint64_t n = next_of(g, i);

			if (n < t1) {
				t2 = t1;
				t1 = n;
				first = i;
			} else if (n < t2) {
				t2 = n;
			}
		}
		if (t1 >= t)
			break;
		flush_thread(g, first, t2 > t1 && t2 < t ? t2 : t2 > t1 ? t : t1 + 1,
			     next_call(g, first, cur, t));
	}
	g->kev_next = next_time(g);
}
