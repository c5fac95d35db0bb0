// SPDX-License-Identifier: GPL-2.0
/*
 * The function_graph view, in the layout of the kernel's
 * trace_functions_graph.c with its CPU and TASK/PID columns on:
 *
 *  0)    demo-12     |               |  main() {
 *  0)    demo-12     |   0.101 us    |    leaf();
 *  0)    demo-12     | + 14.237 us   |  }            (+ the name, below)
 *
 * The columns are the kernel's funcgraph-* options (-O): CPU, TASK/PID
 * and DURATION on by default, a leading abstime off; every closing brace
 * is followed by its function's name in a comment (funcgraph-tail, on by
 * default here), since threads interleave and a bare brace is hard to
 * pair by eye.  A function whose exit is the very
 * next event of its thread is a leaf, printed on one line: the cursor's
 * one-event lookahead decides that.
 *
 * A whole call (tracing_thresh) comes at its exit, as the kernel prints
 * a return whose entry it did not see: a closing brace named in a
 * comment, at the call's depth, its duration in the column.
 *
 * Recorded arguments (-A) are shown as the kernel's funcgraph-args shows
 * them, values in the order recorded: `parse("1+2", 5) {` for a call,
 * `lex(0x10);` for a leaf.  A typed return value (-R) is said where the
 * untyped one (-O retval) would be, "= 7" in the comment after the brace
 * or the leaf, in its place; and whatever the options say, since it was
 * asked for by name.
 */
#include "report_graph.h"
#include "trace_args.h"
#include "../common/array.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* print_graph_headers_flags: each column adds its piece to both lines. */
static void print_header(const struct report *r)
{
	FILE *out = r->out;
	static const struct { unsigned bit; const char *title, *ticks; } columns[] = {
		{ REPORT_SHOW_ABSTIME, "     TIME       ", "      |         " },
		{ REPORT_SHOW_CPU, " CPU", " |  " },
		{ REPORT_SHOW_PROC, "  TASK/PID       ", "   |    |        " },
		{ REPORT_SHOW_DURATION, "  DURATION   ", "   |   |      " },
	};
	size_t n = sizeof(columns) / sizeof(columns[0]);

	fputs("# tracer: function_graph\n", out);
	report_print_cut(r);
	graph_kev_header(r);
	fputs("#\n#", out);
	for (size_t i = 0; i < n; i++)
		if (r->show & columns[i].bit)
			fputs(columns[i].title, out);
	fputs("               FUNCTION CALLS\n#", out);
	for (size_t i = 0; i < n; i++)
		if (r->show & columns[i].bit)
			fputs(columns[i].ticks, out);
	fputs("               |   |   |   |\n", out);
}

/* ---- the columns before the function ---- */

/* Like the kernel's max_bytes_for_cpu: as wide as the highest CPU. */
static int cpu_column_width(const struct trace_data *td)
{
	uint32_t top = td->info.nr_cpus ? td->info.nr_cpus - 1 : 0;
	int width = 1;

	if (td->max_cpu != TR_NO_CPU && td->max_cpu > top)
		top = td->max_cpu;
	while (top >= 10) {
		top /= 10;
		width++;
	}
	return width;
}

void graph_print_cpu(const struct graph *g, uint32_t cpu)
{
	if (cpu == TR_NO_CPU)
		fprintf(g->out, " %*s) ", g->cpu_width, "?");
	else
		fprintf(g->out, " %*u) ", g->cpu_width, cpu);
}

/* print_graph_proc: "comm-pid", comm cut to 7, centred in 14 columns. */
void graph_print_proc(FILE *out, const char *comm, uint32_t tid)
{
	char task[40];
	int len = snprintf(task, sizeof(task), "%.7s-%u", comm, tid);
	int spaces = len < 14 ? 14 - len : 0;

	fprintf(out, "%*s%s%*s", spaces / 2, "", task, spaces - spaces / 2, "");
}

static struct cpu_owner *owner_of(struct graph *g, uint32_t cpu)
{
	struct cpu_owner *o;

	for (unsigned i = 0; i < g->nr_owners; i++)
		if (g->owners[i].cpu == cpu)
			return &g->owners[i];
	if (grow_array((void **)&g->owners, &g->cap_owners, g->nr_owners + 1, sizeof(*o)))
		return NULL;
	o = &g->owners[g->nr_owners++];
	*o = (struct cpu_owner) { .cpu = cpu, .thread = ~0u };
	return o;
}

static void print_banner(struct graph *g, uint32_t cpu, const struct cpu_owner *prev,
			 const struct tr_event *ev, uint32_t tid)
{
	const struct report_thread *from = &g->r->threads[prev->thread];

	fputs(" ------------------------------------------\n", g->out);
	graph_print_cpu(g, cpu);
	graph_print_proc(g->out, prev->comm, from->th->tid);
	fputs(" => ", g->out);
	graph_print_proc(g->out, ev->comm, tid);
	fputs("\n ------------------------------------------\n\n", g->out);
}

/* verif_pid: a banner when a CPU's lines change thread. */
static int note_thread(struct graph *g, unsigned ti, const struct tr_event *ev)
{
	struct cpu_owner *o = owner_of(g, ev->cpu);

	if (!o)
		return -1;
	if (o->thread != ~0u && o->thread != ti)
		print_banner(g, ev->cpu, o, ev, g->r->threads[ti].th->tid);
	o->thread = ti;
	o->comm = ev->comm;
	return 0;
}

/* print_graph_abs_time: seconds and microseconds of CLOCK_MONOTONIC. */
void graph_print_abstime(FILE *out, uint64_t ns)
{
	fprintf(out, "%5" PRIu64 ".%06" PRIu64 " |  ", ns / 1000000000,
		ns % 1000000000 / 1000);
}

static int print_prologue(struct graph *g, unsigned ti, const struct tr_event *ev)
{
	unsigned show = g->r->show;

	if (note_thread(g, ti, ev))
		return -1;
	if (show & REPORT_SHOW_ABSTIME)
		graph_print_abstime(g->out, ev->time);
	if (show & REPORT_SHOW_CPU)
		graph_print_cpu(g, ev->cpu);
	if (show & REPORT_SHOW_PROC) {
		graph_print_proc(g->out, ev->comm, g->r->threads[ti].th->tid);
		fputs(" | ", g->out);
	}
	return 0;
}

void graph_print_duration(const struct graph *g, uint64_t start, uint64_t end)
{
	uint64_t ns = end > start ? end - start : 0;
	char buf[REPORT_DURATION_LEN];

	if (g->r->show & REPORT_SHOW_DURATION)
		fprintf(g->out, "%c %s|  ", report_duration_mark(ns),
			report_format_duration(buf, sizeof(buf), ns));
}

void graph_print_no_duration(const struct graph *g)
{
	if (g->r->show & REPORT_SHOW_DURATION)
		fputs("              |  ", g->out);
}

void graph_print_indent(FILE *out, unsigned depth)
{
	fprintf(out, "%*s", (int)(depth * GRAPH_INDENT), "");
}

/* print_graph_retval: an int error code (-4095..-1, also when only the
 * low 32 bits were set, as an int return leaves them) in decimal, any
 * other value in hex. */
static const char *format_retval(char *buf, size_t len, uint64_t v)
{
	int64_t err = (v >> 31) == 1 ? (int64_t)(int32_t)v : (int64_t)v;

	if (err < 0 && err >= -4095)
		snprintf(buf, len, "%" PRId64, err);
	else
		snprintf(buf, len, "0x%" PRIx64, v);
	return buf;
}

/* The return value a comment shows, or NULL: a typed one (-R) always,
 * an untyped one if the options ask for it. */
static const char *retval_text(const struct graph *g, const struct tr_thread *th,
			       uint32_t func, const struct tr_event *exit, char *buf, size_t len)
{
	if (exit->args &&
	    report_args_text(g->r, th, func, exit->args, exit->args_words, buf, len))
		return buf;
	if ((g->r->show & REPORT_SHOW_RETVAL) && exit->exit_kind == TR_EXIT_RET)
		return format_retval(buf, len, exit->value);
	return NULL;
}

/* ---- the shadow of each thread's stack ---- */

static int push_frame(struct graph_thread *gt, struct frame f)
{
	if (grow_array((void **)&gt->stack, &gt->cap, gt->depth + 1, sizeof(*gt->stack)))
		return -1;
	gt->stack[gt->depth++] = f;
	return 0;
}

/* After lost events, trust the depth the recorder resumed at: drop the
 * frames that must have returned unseen, or stand in for the ones
 * entered unseen with unnamed frames. */
static int resync(struct graph_thread *gt, uint32_t depth)
{
	if (gt->depth > depth)
		gt->depth = depth;
	while (gt->depth < depth)
		if (push_frame(gt, (struct frame) { 0 }))
			return -1;
	return 0;
}

/* ---- one line per event ---- */

/* --srcline: where an entered function is, ending its line. */
static void print_srcline(const struct graph *g, const struct tr_thread *th, uint32_t func)
{
	const char *where = report_srcline(g->r, th, func);

	if (where)
		fprintf(g->out, " /* %s */", where);
	fputc('\n', g->out);
}

/* "name(args);" for a leaf, "name(args) {" for a call, with the values
 * the call was given if recorded. */
static void print_call(const struct graph *g, const struct tr_thread *th,
		       const struct tr_event *entry, int leaf)
{
	char name[REPORT_NAME_LEN], args[TR_ARGS_TEXT_LEN];
	const char *func = report_func_name(th, entry->func, name, sizeof(name));

	if (!entry->args) {
		fprintf(g->out, leaf ? "%s();" : "%s() {", func);
		return;
	}
	report_args_text(g->r, th, entry->func, entry->args, entry->args_words, args,
			 sizeof(args));
	fprintf(g->out, leaf ? "%s(%s);" : "%s(%s) {", func, args);
}

static int print_leaf(struct graph *g, unsigned ti, const struct tr_event *entry,
		      const struct tr_event *exit)
{
	const struct tr_thread *th = g->r->threads[ti].th;
	char val[TR_ARGS_TEXT_LEN];
	const char *ret = retval_text(g, th, entry->func, exit, val, sizeof(val));

	if (print_prologue(g, ti, entry))
		return -1;
	graph_print_duration(g, entry->time, exit->time);
	graph_print_indent(g->out, g->threads[ti].depth);
	print_call(g, th, entry, 1);
	if (ret)
		fprintf(g->out, " /* = %s */", ret);
	print_srcline(g, th, entry->func);
	return 0;
}

static int print_nested(struct graph *g, unsigned ti, const struct tr_event *entry)
{
	struct graph_thread *gt = &g->threads[ti];

	if (print_prologue(g, ti, entry))
		return -1;
	graph_print_no_duration(g);
	graph_print_indent(g->out, gt->depth);
	print_call(g, g->r->threads[ti].th, entry, 0);
	print_srcline(g, g->r->threads[ti].th, entry->func);
	return push_frame(gt, (struct frame) {
		.func = entry->func, .timed = 1, .start = entry->time });
}

static int on_entry(struct graph *g, unsigned ti, const struct tr_event *ev)
{
	struct sel_cursor *c = &g->merge.cursors[ti];
	const struct tr_event *next = sel_cursor_peek(c);
	struct tr_event exit;

	/* An unwound exit keeps two lines: "unwound" belongs on a brace. */
	if (!next || next->type != TR_EXIT || next->exit_kind == TR_EXIT_UNWIND ||
	    graph_kev_before(g, ti, next->time))
		return print_nested(g, ti, ev);
	sel_cursor_next(c, &exit);
	return print_leaf(g, ti, ev, &exit);
}

/* "}", and in a comment what the options ask for: the name (tail), the
 * return value, or that the frame was unwound. */
static void print_brace(struct graph *g, const struct tr_thread *th,
			const struct frame *f, const struct tr_event *ev)
{
	char buf[REPORT_NAME_LEN], val[TR_ARGS_TEXT_LEN];
	const char *name = f->func ? report_func_name(th, f->func, buf, sizeof(buf)) : "?";
	int tail = g->r->show & REPORT_SHOW_TAIL;
	const char *ret = retval_text(g, th, f->func, ev, val, sizeof(val));

	if (ev->exit_kind == TR_EXIT_UNWIND)
		fprintf(g->out, "} /* %s%sunwound */\n", tail ? name : "", tail ? ": " : "");
	else if (ret)
		fprintf(g->out, "} /* %s%s= %s */\n", tail ? name : "", tail ? " " : "", ret);
	else if (tail)
		fprintf(g->out, "} /* %s */\n", name);
	else
		fputs("}\n", g->out);
}

static int on_return(struct graph *g, unsigned ti, const struct tr_event *ev)
{
	struct graph_thread *gt = &g->threads[ti];
	const struct frame *f;

	if (print_prologue(g, ti, ev))
		return -1;
	if (gt->depth == 0) {
		/* Its entry came before the trace began: the kernel's bare brace. */
		graph_print_no_duration(g);
		fputs("}\n", g->out);
		return 0;
	}
	f = &gt->stack[--gt->depth];
	if (f->timed)
		graph_print_duration(g, f->start, ev->time);
	else
		graph_print_no_duration(g);
	graph_print_indent(g->out, gt->depth);
	print_brace(g, g->r->threads[ti].th, f, ev);
	return 0;
}

/* A whole call (tracing_thresh): the kernel's line for a return whose
 * entry it never saw, a brace and the function's name in a comment,
 * with the call's duration, at the depth it had. */
static int on_call(struct graph *g, unsigned ti, const struct tr_event *ev)
{
	const struct tr_thread *th = g->r->threads[ti].th;
	char buf[REPORT_NAME_LEN];
	const char *name = report_func_name(th, ev->func, buf, sizeof(buf));

	if (print_prologue(g, ti, ev))
		return -1;
	graph_print_duration(g, ev->time - ev->value, ev->time);
	graph_print_indent(g->out, ev->depth);
	fprintf(g->out, ev->exit_kind == TR_EXIT_UNWIND ? "} /* %s: unwound */" : "} /* %s */",
		name);
	print_srcline(g, th, ev->func);
	return 0;
}

static int on_lost(struct graph *g, unsigned ti, const struct tr_event *ev)
{
	report_print_lost(g->out, ev);
	report_count_lost(&g->r->threads[ti], ev);
	return resync(&g->threads[ti], tr_resume_depth(ev));
}

/* print_graph_comment: a marker as a comment, one trailing newline cut. */
static int on_marker(struct graph *g, unsigned ti, const struct tr_event *ev)
{
	uint32_t len = strnlen(ev->text, ev->text_len);

	if (len && ev->text[len - 1] == '\n')
		len--;
	if (print_prologue(g, ti, ev))
		return -1;
	graph_print_no_duration(g);
	graph_print_indent(g->out, g->threads[ti].depth);
	fprintf(g->out, "/* %.*s */\n", (int)len, ev->text);
	return 0;
}

/* A stack trace, in the comment print_graph_comment makes of any event
 * that is not the graph's: its frames' lines start at the margin. */
static int on_stack(struct graph *g, unsigned ti, const struct tr_event *ev)
{
	if (print_prologue(g, ti, ev))
		return -1;
	graph_print_no_duration(g);
	graph_print_indent(g->out, g->threads[ti].depth);
	fputs("/* ", g->out);
	return report_print_stack(g->r, g->r->threads[ti].th, ev, " */");
}

static int on_event(struct graph *g, unsigned ti, const struct tr_event *ev)
{
	graph_kev_flush(g, ti, ev->time);
	switch (ev->type) {
	case TR_ENTRY:
		return on_entry(g, ti, ev);
	case TR_EXIT:
		return on_return(g, ti, ev);
	case TR_LOST:
		return on_lost(g, ti, ev);
	case TR_MARKER:
		return on_marker(g, ti, ev);
	case TR_STACK:
		return on_stack(g, ti, ev);
	case TR_CALL:
		return on_call(g, ti, ev);
	case TR_FUNC:	/* the function tracer's: not part of a graph */
		break;
	}
	return 0;
}

/* ---- frames carried from one part of a stream to the next ---- */

struct carried_thread {
	uint32_t pid, image, tid;
	struct graph_thread gt;
};

static struct carried_thread *carried(struct report_carry *carry,
				      const struct tr_thread *th)
{
	for (unsigned i = 0; i < carry->nr; i++) {
		struct carried_thread *c = &carry->threads[i];

		if (c->pid == th->pid && c->image == th->image && c->tid == th->tid)
			return c;
	}
	return NULL;
}

static void take_carried(struct graph *g)
{
	for (unsigned i = 0; g->r->opt->carry && i < g->r->nr_threads; i++) {
		struct carried_thread *c = carried(g->r->opt->carry, g->r->threads[i].th);

		if (c) {
			g->threads[i] = c->gt;
			c->gt = (struct graph_thread) { 0 };
		}
	}
}

/* Hands each thread's open frames over to the carry; -1 if out of memory. */
static int leave_carried(struct graph *g)
{
	struct report_carry *carry = g->r->opt->carry;

	for (unsigned i = 0; carry && i < g->r->nr_threads; i++) {
		const struct tr_thread *th = g->r->threads[i].th;
		struct carried_thread *c = carried(carry, th);

		if (!c) {
			c = realloc(carry->threads, (carry->nr + 1) * sizeof(*c));
			if (!c)
				return -1;
			carry->threads = c;
			c = &carry->threads[carry->nr++];
			*c = (struct carried_thread) { .pid = th->pid, .image = th->image,
						       .tid = th->tid };
		}
		c->gt = g->threads[i];
		g->threads[i] = (struct graph_thread) { 0 };
	}
	return 0;
}

void report_carry_free(struct report_carry *carry)
{
	for (unsigned i = 0; i < carry->nr; i++)
		free(carry->threads[i].gt.stack);
	free(carry->threads);
	free(carry->ends);
	*carry = (struct report_carry) { 0 };
}

static void graph_free(struct graph *g)
{
	for (unsigned i = 0; i < g->r->nr_threads; i++)
		free(g->threads[i].stack);
	free(g->threads);
	free(g->owners);
	graph_kev_free(g);
	merge_free(&g->merge, g->r);
}

int report_graph(struct report *r)
{
	struct graph g = { .r = r, .out = r->out };
	struct tr_event ev;
	int ti, err = 0;

	g.cpu_width = cpu_column_width(&r->td);
	g.threads = calloc(r->nr_threads ? r->nr_threads : 1, sizeof(*g.threads));
	if (!g.threads)
		return -1;
	if (merge_init(&g.merge, r)) {
		free(g.threads);
		return -1;
	}
	take_carried(&g);
	if (graph_kev_init(&g)) {
		graph_free(&g);
		return -1;
	}
	if (!r->opt->no_header)
		print_header(r);
	while (!err && (ti = merge_next(&g.merge, &ev)) >= 0)
		err = on_event(&g, ti, &ev);
	if (!err)
		graph_kev_flush(&g, ~0u, UINT64_MAX);
	if (!err)
		err = leave_carried(&g);
	graph_free(&g);
	return err;
}
