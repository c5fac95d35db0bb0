// SPDX-License-Identifier: GPL-2.0
/*
 * The function tracer's view, in the layout of the kernel's trace file:
 *
 *             demo-1977    [000] .....  17284.993652: func <-caller
 *
 * The header counts the entries before any is printed, so the trace is
 * read twice: once to count (decoding only, nothing kept), once to print.
 * Markers and stack traces (the stacktrace trigger) come in place,
 * between the calls, as the kernel's buffer holds them; -F, -N and --time-range pick the calls (the
 * function tracer has no depth and no durations for -D and
 * --min-duration to judge).
 * The caller is named from the ELF symbols of the module it lies in.
 * The kernel's events (record -e) come among them in time order, as the
 * kernel prints events (report_function_kev.c).
 * Recorded arguments (-A) follow the name as in the kernel's func-args:
 * `parse("1+2", 5) <-main`.
 */
#include "report_int.h"
#include "report_function_kev.h"
#include "trace_args.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct fn_view {
	struct report *r;
	FILE *out;
	struct report_merge merge;
	struct fn_kev kev;		/* the kernel's events among the calls */
};

/* What the header says, from a first pass over the selected threads. */
struct fn_counts {
	uint64_t entries, lost;
	uint32_t *cpus;			/* distinct CPUs seen */
	unsigned nr_cpus;
};

static int note_cpu(struct fn_counts *n, uint32_t cpu)
{
	uint32_t *v;

	if (cpu == TR_NO_CPU)
		return 0;
	for (unsigned i = 0; i < n->nr_cpus; i++)
		if (n->cpus[i] == cpu)
			return 0;
	v = realloc(n->cpus, (n->nr_cpus + 1) * sizeof(*v));
	if (!v)
		return -1;
	n->cpus = v;
	n->cpus[n->nr_cpus++] = cpu;
	return 0;
}

static int count_thread(struct report *r, const struct tr_thread *th,
			struct fn_counts *n)
{
	struct sel_cursor c;
	struct tr_event ev;
	int err = 0;

	sel_cursor_init(&c, &r->sel, th);
	while (!err && sel_cursor_next(&c, &ev)) {
		if (ev.type == TR_FUNC || ev.type == TR_MARKER || ev.type == TR_STACK)
			n->entries++;
		else if (ev.type == TR_LOST)
			n->lost += ev.value;
		err = note_cpu(n, ev.cpu);
	}
	sel_cursor_free(&c);
	return err;
}

static int print_header(struct report *r)
{
	struct fn_counts n = { 0 };
	unsigned cpus;
	int err = 0;

	for (unsigned i = 0; !err && i < r->nr_threads; i++)
		err = count_thread(r, r->threads[i].th, &n);
	free(n.cpus);
	if (err)
		return -1;
	/* #P is the machine's CPU count when the recorder noted it. */
	cpus = r->td.info.nr_cpus ? r->td.info.nr_cpus : n.nr_cpus;
	fprintf(r->out, "# tracer: %s\n", r->td.info.nop ? "nop" : "function");
	report_print_cut(r);
	fprintf(r->out, "#\n"
		"# entries-in-buffer/entries-written: %" PRIu64 "/%" PRIu64 "   #P:%u\n"
		"#\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n",
		n.entries, n.entries + n.lost, cpus);
	return 0;
}

/* trace_print_context, with no irq or preemption state to show. */
static void print_context(FILE *out, const struct tr_thread *th,
			  const struct tr_event *ev)
{
	uint64_t us = (ev->time + 500) / 1000;	/* ns2usecs rounds */

	fprintf(out, "%16s-%-7u ", ev->comm, th->tid);
	if (ev->cpu == TR_NO_CPU)
		fputs("[???] ", out);
	else
		fprintf(out, "[%03u] ", ev->cpu);
	fprintf(out, ".....  %5" PRIu64 ".%06" PRIu64 ": ", us / 1000000, us % 1000000);
}

static void print_args(const struct fn_view *v, const struct tr_thread *th,
		       const struct tr_event *ev)
{
	char args[TR_ARGS_TEXT_LEN];

	report_args_text(v->r, th, ev->func, ev->args, ev->args_words, args, sizeof(args));
	fprintf(v->out, "(%s)", args);
}

/* trace_fn_trace: "func <-caller", without the arrow for no caller. */
static int print_func(struct fn_view *v, const struct tr_thread *th,
		      const struct tr_event *ev)
{
	char name[REPORT_NAME_LEN], buf[256];
	const char *where = report_srcline(v->r, th, ev->func);
	const char *caller = ev->value ? report_addr_name(v->r, th, ev->value, buf, sizeof(buf)) : "";

	if (!caller)
		return -1;
	print_context(v->out, th, ev);
	fputs(report_func_name(th, ev->func, name, sizeof(name)), v->out);
	if (ev->args)
		print_args(v, th, ev);
	if (ev->value)
		fprintf(v->out, " <-%s", caller);
	if (where)
		fprintf(v->out, " /* %s */", where);
	fputc('\n', v->out);
	return 0;
}

/* A marker, as the kernel prints a trace_marker write. */
static void print_marker(FILE *out, const struct tr_thread *th,
			 const struct tr_event *ev)
{
	uint32_t len = strnlen(ev->text, ev->text_len);

	if (len && ev->text[len - 1] == '\n')
		len--;
	print_context(out, th, ev);
	fprintf(out, "tracing_mark_write: %.*s\n", (int)len, ev->text);
}

static int on_event(struct fn_view *v, unsigned ti, const struct tr_event *ev)
{
	struct report_thread *rt = &v->r->threads[ti];

	fn_kev_flush(&v->kev, ev->time);
	switch (ev->type) {
	case TR_FUNC:
		return print_func(v, rt->th, ev);
	case TR_MARKER:
		print_marker(v->out, rt->th, ev);
		break;
	case TR_STACK:
		print_context(v->out, rt->th, ev);
		return report_print_stack(v->r, rt->th, ev, "");
	case TR_LOST:
		report_print_lost(v->out, ev);
		report_count_lost(rt, ev);
		break;
	case TR_ENTRY:	/* the graph tracer's: no place in this view */
	case TR_EXIT:
	case TR_CALL:
		break;
	}
	return 0;
}

int report_function(struct report *r)
{
	struct fn_view v = { .r = r, .out = r->out };
	struct tr_event ev;
	int ti, err = 0;

	if ((!r->opt->no_header && print_header(r)) || fn_kev_init(&v.kev, r))
		return -1;
	if (merge_init(&v.merge, r)) {
		fn_kev_free(&v.kev);
		return -1;
	}
	while (!err && (ti = merge_next(&v.merge, &ev)) >= 0)
		err = on_event(&v, ti, &ev);
	if (!err)
		fn_kev_flush(&v.kev, UINT64_MAX);
	merge_free(&v.merge, r);
	fn_kev_free(&v.kev);
	return err;
}
