// SPDX-License-Identifier: GPL-2.0
/*
 * report_run(): opens a data directory, picks the threads and the view,
 * and ends with what the trace itself cannot show (lost events, how the
 * program ended).  Also the pieces every view uses: the time-ordered
 * merge of threads and the kernel's duration format.
 */
#include "counts.h"
#include "report_int.h"
#include "../dwarf/srcline.h"
#include "trace_reader.h"
#include "../common/print.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- the kernel's duration column (trace_print_graph_duration) ---- */

const char *report_format_duration(char *buf, size_t len, uint64_t ns)
{
	int n = snprintf(buf, len, "%" PRIu64, ns / 1000);

	/* Seven digits at most: the nanoseconds get what the microseconds
	 * leave, so 1234.567, 12345.67, 123456.7, then 1234567. */
	if (n < 7) {
		int digits = 7 - n < 3 ? 7 - n : 3;
		char nsecs[8];

		snprintf(nsecs, sizeof(nsecs), "%03u", (unsigned)(ns % 1000));
		n += snprintf(buf + n, len - n, ".%.*s", digits, nsecs);
	}
	snprintf(buf + strlen(buf), len - strlen(buf), " us %*s",
		 n < 8 ? 8 - n : 0, "");
	return buf;
}

char report_duration_mark(uint64_t ns)
{
	static const struct { uint64_t above; char mark; } marks[] = {
		{ 1000000000, '$' }, { 100000000, '@' }, { 10000000, '*' },
		{ 1000000, '#' }, { 100000, '!' }, { 10000, '+' },
	};

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].above)
			return marks[i].mark;
	return ' ';
}

const char *report_func_name(const struct tr_thread *th, uint32_t id,
			     char *buf, size_t len)
{
	const char *name = tr_func_name(th->proc, id);

	if (name)
		return name;
	snprintf(buf, len, "<id %u>", id);
	return buf;
}

const char *report_srcline(const struct report *r, const struct tr_thread *th, uint32_t id)
{
	return r->srclines ? tr_srcline(r->srclines, th->proc, id) : NULL;
}

struct value_namer {
	const struct tr_arg_names *names;
	const char *func;
};

static void label_value(const void *ctx, const struct tr_arg *a, struct tr_arg_label *out)
{
	const struct value_namer *n = ctx;

	out->name = tr_arg_name(n->names, n->func, a);
	out->value = tr_arg_enum(n->names, n->func, a);
}

size_t report_args_text(const struct report *r, const struct tr_thread *th, uint32_t id,
			const uint32_t *words, uint32_t nr, char *buf, size_t size)
{
	struct value_namer n = { r->arg_names, tr_func_name(th->proc, id) };

	return tr_args_format_named(words, nr, r->arg_names ? label_value : NULL, &n, buf, size);
}

/* ---- the merge: a binary min-heap of threads keyed by their next event ---- */

static int merge_before(struct report_merge *m, unsigned a, unsigned b)
{
	uint64_t ta = sel_cursor_when(&m->cursors[a]);
	uint64_t tb = sel_cursor_when(&m->cursors[b]);

	return ta < tb || (ta == tb && a < b);
}

static void heap_swap(unsigned *heap, unsigned i, unsigned j)
{
	unsigned t = heap[i];

	heap[i] = heap[j];
	heap[j] = t;
}

static void heap_push(struct report_merge *m, unsigned thread)
{
	unsigned i = m->nr_heap++;

	m->heap[i] = thread;
	while (i > 0 && merge_before(m, m->heap[i], m->heap[(i - 1) / 2])) {
		heap_swap(m->heap, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static unsigned heap_pop(struct report_merge *m)
{
	unsigned top = m->heap[0], i = 0;

	m->heap[0] = m->heap[--m->nr_heap];
	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, min = i;

		if (l < m->nr_heap && merge_before(m, m->heap[l], m->heap[min]))
			min = l;
		if (r < m->nr_heap && merge_before(m, m->heap[r], m->heap[min]))
			min = r;
		if (min == i)
			return top;
		heap_swap(m->heap, i, min);
		i = min;
	}
}

/* A thread joins the heap only while it has events left. */
static void merge_offer(struct report_merge *m, unsigned thread)
{
	if (sel_cursor_peek(&m->cursors[thread]))
		heap_push(m, thread);
}

int merge_init(struct report_merge *m, struct report *r)
{
	unsigned n = r->nr_threads ? r->nr_threads : 1;

	m->cursors = calloc(n, sizeof(*m->cursors));
	m->heap = calloc(n, sizeof(*m->heap));
	m->nr_heap = 0;
	m->last = -1;
	m->stopped = r->opt->stopped;
	if (!m->cursors || !m->heap) {
		free(m->cursors);
		free(m->heap);
		return -1;
	}
	for (unsigned i = 0; i < r->nr_threads; i++) {
		sel_cursor_init(&m->cursors[i], &r->sel, r->threads[i].th);
		merge_offer(m, i);
	}
	return 0;
}

void merge_free(struct report_merge *m, const struct report *r)
{
	for (unsigned i = 0; i < r->nr_threads; i++)
		sel_cursor_free(&m->cursors[i]);
	free(m->cursors);
	free(m->heap);
}

int merge_next(struct report_merge *m, struct tr_event *ev)
{
	/* The thread returned last goes back in only now: its caller may
	 * have consumed more of its events (a leaf's exit) meanwhile. */
	if (m->last >= 0)
		merge_offer(m, m->last);
	m->last = -1;
	if (m->nr_heap == 0 || (m->stopped && m->stopped()))
		return -1;
	m->last = heap_pop(m);
	sel_cursor_next(&m->cursors[m->last], ev);
	return m->last;
}

/* ---- choosing threads ---- */

static void warn_missing_tids(const struct report *r)
{
	for (unsigned i = 0; i < r->opt->nr_tids; i++) {
		unsigned j = 0;

		while (j < r->td.nr_threads && r->td.threads[j].tid != r->opt->tids[i])
			j++;
		if (j == r->td.nr_threads)
			pr_warn("no thread %u in %s", r->opt->tids[i], r->td.dir);
	}
}

static int select_threads(struct report *r)
{
	r->threads = calloc(r->td.nr_threads ? r->td.nr_threads : 1,
			    sizeof(*r->threads));
	if (!r->threads)
		return -1;
	for (unsigned i = 0; i < r->td.nr_threads; i++)
		if (tr_tid_chosen(r->opt->tids, r->opt->nr_tids, r->td.threads[i].tid))
			r->threads[r->nr_threads++].th = &r->td.threads[i];
	warn_missing_tids(r);
	return 0;
}

/* ---- what happened besides the trace ---- */

static uint64_t lost_of(const struct report_thread *t, unsigned why)
{
	return t->lost;
}

static uint64_t gaps_of(const struct report_thread *t, unsigned why)
{
	return t->gaps;
}

/* Calls the graph could not follow: not in the graph, but counted. */
static uint64_t missed_of(const struct report_thread *t, unsigned why)
{
	return t->th->missed[why];
}

/* A count's total under its title, then each thread that has some. */
static void print_per_thread(const struct report *r, const char *title, const char *tail,
			     uint64_t (*count)(const struct report_thread *, unsigned),
			     unsigned why)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < r->nr_threads; i++)
		total += count(&r->threads[i], why);
	if (!total)
		return;
	fprintf(r->out, "# %s: %" PRIu64 "%s\n", title, total, tail);
	for (unsigned i = 0; i < r->nr_threads; i++)
		if (count(&r->threads[i], why))
			fprintf(r->out, "#   %s-%u: %" PRIu64 "\n", r->threads[i].th->comm,
				r->threads[i].th->tid, count(&r->threads[i], why));
}

/* The kernel's words for the first: calls too deep for the shadow stack. */
static void print_missed(const struct report *r)
{
	print_per_thread(r, tr_missed_why(FT_MISSED_OVERRUN), " calls too deep to graph",
			 missed_of, FT_MISSED_OVERRUN);
	for (unsigned why = FT_MISSED_OVERRUN + 1; why < FT_MISSED_KINDS; why++)
		print_per_thread(r, tr_missed_why(why), " calls not graphed", missed_of, why);
}

/* Programs a process ran (exec) that fntrace could not trace. */
static void print_untraced(const struct report *r)
{
	for (unsigned i = 0; i < r->td.nr_procs; i++)
		if (r->td.procs[i].notraced)
			fprintf(r->out, "# pid %u: %s has no call sites: not traced\n",
				r->td.procs[i].pid, r->td.procs[i].notraced);
}

/* info's "signal N NAME[ (core dumped)]" as "N (NAME)[, core dumped]". */
static void print_signal(FILE *out, const char *s)
{
	char name[32] = "";
	int signo, used = 0;

	if (sscanf(s, "%d%n %31[A-Z0-9+-]%n", &signo, &used, name, &used) < 1) {
		fprintf(out, "# program ended: signal %s\n", s);
		return;
	}
	fprintf(out, "# program killed by signal %d", signo);
	if (name[0])
		fprintf(out, " (%s)", name);
	fprintf(out, "%s\n", strstr(s + used, "core dumped") ? ", core dumped" : "");
}

static void print_exit(const struct report *r)
{
	const char *e = r->td.info.exit;
	int status, used = 0;

	if (!e)
		fputs("# program still running or recorder stopped\n", r->out);
	else if (!strncmp(e, "signal ", 7))
		print_signal(r->out, e + 7);
	else if (sscanf(e, "status %d%n", &status, &used) == 1 && !e[used])
		fprintf(r->out, "# program exited with status %d\n", status);
	else
		fprintf(r->out, "# program ended: %s\n", e);
}

/* A recording that ended early: what fit is above, the rest was dropped. */
static void print_ending(const struct report *r)
{
	const struct tr_info *i = &r->td.info;

	if (i->ending || i->dropped)
		fprintf(r->out, "# recording stopped: %s; %" PRIu64 " events dropped\n",
			i->ending ? i->ending : "early", i->dropped);
	if (i->unsaid)
		fprintf(r->out, "# %" PRIu64 " more events lost in threads that ended, or "
			"were traced no more, before their trace could say so\n", i->unsaid);
}

void report_print_lost(FILE *out, const struct tr_event *ev)
{
	char cpu[16] = "?";

	if (!ev->value && !ev->gap)
		return;
	if (ev->cpu != TR_NO_CPU)
		snprintf(cpu, sizeof(cpu), "%u", ev->cpu);
	if (ev->gap)
		fprintf(out, " CPU:%s [LOST EVENTS]\n", cpu);
	else
		fprintf(out, " CPU:%s [LOST %" PRIu64 " EVENTS]\n", cpu, ev->value);
}

void report_count_lost(struct report_thread *rt, const struct tr_event *ev)
{
	rt->lost += ev->value;
	rt->gaps += !!ev->gap;
}

void report_print_cut(const struct report *r)
{
	const struct tr_info *i = &r->td.info;
	uint64_t kept = tr_kept_ns(&r->td);
	char cut[192];

	if (!i->cut.chunks)
		return;
	fprintf(r->out, "# %s", tr_format_cut(cut, sizeof(cut), i->max_size, &i->cut));
	if (kept)
		fprintf(r->out, ": the last %.3f s of the recording kept", kept / 1e9);
	fputc('\n', r->out);
}

/* A directory its recorder never finished (killed, say): readable, but
 * said, in one line that also covers a trace.dat ending mid-chunk. */
static void say_unsealed(const struct trace_data *td)
{
	const struct tr_info *i = &td->info;

	if (i->stream) {
		pr_warn("%s holds what arrived of a remote recording, %.1f s of it: its stream "
			"ended early (%s)", td->dir, (i->clock_n1 - i->clock_n0) / 1e9, i->stream);
		return;
	}
	pr_warn("%s was never sealed: its recorder was last heard of %.1f s "
		 "into the recording (killed?)%s%s%s", td->dir, (i->clock_n1 - i->clock_n0) / 1e9,
		 i->ending ? "; it had ended: " : "", i->ending ? i->ending : "",
		 td->truncated ? "; trace.dat ends inside a chunk" : "");
}

/* Problems found while decoding: the output above them is incomplete. */
static int report_problems(const struct report *r)
{
	unsigned bad = tr_bad_chunks(&r->td);

	if (r->td.truncated && !r->td.info.unsealed)
		pr_warn("%s/trace.dat ends inside a chunk: "
			 "its last events are missing", r->td.dir);
	if (bad)
		pr_warn("%s/trace.dat: %u chunk%s end in words that are "
			 "not events", r->td.dir, bad, bad == 1 ? "" : "s");
	if (r->td.read_error)
		pr_error("%s/trace.dat: %s", r->td.dir, strerror(r->td.read_error));
	return r->td.read_error ? -1 : 0;
}

static int run_view(struct report *r)
{
	if (r->opt->stat || r->opt->csv)
		return report_stat(r);
	if (!strcmp(r->td.info.tracer, "function"))
		return report_function(r);
	return report_graph(r);
}

int report_run(const char *dir, FILE *out, const struct report_options *o)
{
	static const struct report_options defaults;
	struct report r = { .opt = o ? o : &defaults, .out = out };
	int err;

	if (tr_open(&r.td, dir)) {
		pr_error("%s", r.td.err);
		return 1;
	}
	if (r.opt->carry) {
		r.td.before = r.opt->carry->ends;
		r.td.nr_before = r.opt->carry->nr_ends;
	}
	if (r.td.info.unsealed)
		say_unsealed(&r.td);
	r.show = report_show(r.opt);
	/* Return values are there to show only if they were recorded. */
	if (!tr_has_option(&r.td, "retval"))
		r.show &= ~REPORT_SHOW_RETVAL;
	if (selection_init(&r.sel, &r.td, r.opt)) {
		tr_close(&r.td);
		return 1;
	}
	r.arg_names = tr_arg_names_load(dir);
	if (r.opt->srcline && !(r.srclines = tr_srclines_new()))
		err = 1;
	else
		err = select_threads(&r) || run_view(&r) || r.sel.out_of_memory ||
		      (r.opt->carry &&
		       tr_stream_ends(&r.td, &r.opt->carry->ends, &r.opt->carry->nr_ends));
	if (err)
		pr_error("out of memory");
	if (!err && !r.opt->csv) {
		print_per_thread(&r, "lost events", "", lost_of, 0);
		print_per_thread(&r, "gaps where events were lost, how many not known", "",
				 gaps_of, 0);
		print_missed(&r);
		print_untraced(&r);
		print_ending(&r);
		if (!r.opt->live)
			print_exit(&r);
	}
	err |= report_problems(&r);
	free(r.threads);
	selection_free(&r.sel);
	tr_srclines_free(r.srclines);
	tr_arg_names_free(r.arg_names);
	report_syms_free(&r);
	tr_close(&r.td);
	return err ? 1 : 0;
}
