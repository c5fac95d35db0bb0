// SPDX-License-Identifier: GPL-2.0
/*
 * `fntrace info`: one pass over trace.dat, chunk by chunk, counting each
 * thread's events without decoding them (one chunk in memory at a time),
 * then the run's facts as aligned `name  value` lines, as uftrace info
 * prints them, and a table of threads.
 */
#include "info.h"
#include "counts.h"
#include "trace_reader.h"
#include "../common/print.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct info {
	struct trace_data td;
	FILE *out;
	struct tr_counts *threads;	/* parallel to td.threads */
	struct tr_counts total;
	uint32_t *words;		/* the chunk being counted */
	size_t cap;			/* of words, in bytes */
};

/* ---- counting ---- */

static int count_chunk(struct info *in, const struct tr_chunk_ref *r, struct tr_counts *c)
{
	int err;

	if (r->bytes > in->cap) {
		uint32_t *w = realloc(in->words, r->bytes);

		if (!w)
			return ENOMEM;
		in->words = w;
		in->cap = r->bytes;
	}
	err = tr_read_chunk(&in->td, r, in->words);
	if (!err)
		tr_count_chunk(in->words, r->bytes / 4, c);
	return err;
}

/* 0, or the errno of a failed read. */
static int count_threads(struct info *in)
{
	in->threads = calloc(in->td.nr_threads ? in->td.nr_threads : 1, sizeof(*in->threads));
	if (!in->threads)
		return ENOMEM;
	for (unsigned t = 0; t < in->td.nr_threads; t++) {
		const struct tr_thread *th = &in->td.threads[t];

		for (unsigned i = 0; i < th->nr_chunks; i++) {
			int err = count_chunk(in, &th->chunks[i], &in->threads[t]);

			if (err)
				return err;
		}
		tr_counts_add(&in->total, &in->threads[t]);
	}
	return 0;
}

/* ---- the run ---- */

/* One `name  value` line, the values aligned. */
static void __attribute__((format(printf, 3, 4)))
field(const struct info *in, const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(in->out, "%-16s ", name);
	va_start(ap, fmt);
	vfprintf(in->out, fmt, ap);
	va_end(ap);
	fputc('\n', in->out);
}

/* One line per expression, as record was given them. */
static void print_list(const struct info *in, const char *name, const char *list)
{
	if (!*list) {
		field(in, name, "-");
		return;
	}
	while (*list) {
		size_t n = strcspn(list, "\n");

		field(in, name, "%.*s", (int)n, list);
		name = "";
		list += n + (list[n] == '\n');
	}
}

static void print_started(const struct info *in)
{
	time_t t = in->td.info.started;
	char when[64];

	if (!t || !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", localtime(&t)))
		field(in, "started", "-");
	else
		field(in, "started", "%s", when);
}

static void print_duration(const struct info *in)
{
	const struct tr_info *i = &in->td.info;

	if (!i->has_clock)
		field(in, "recorded for", "-");
	else
		field(in, "recorded for", "%.3f s%s", (i->clock_n1 - i->clock_n0) / 1e9,
		      i->unsealed ? " (until the recorder was last heard of)" : "");
}

static void print_ended(const struct info *in)
{
	const char *e = in->td.info.exit;

	if (!e)
		field(in, "program ended", "not seen: still running, or the recorder stopped first");
	else if (!strncmp(e, "status ", 7))
		field(in, "program ended", "exit status %s", e + 7);
	else
		field(in, "program ended", "%s", e);
}

static void print_run(const struct info *in)
{
	const struct tr_info *i = &in->td.info;

	field(in, "command", "%s", i->command);
	field(in, "tracer", "%s", i->tracer);
	print_list(in, "filter", i->filter);
	print_list(in, "notrace", i->notrace);
	if (i->depth)
		field(in, "max depth", "%u", i->depth);
	else
		field(in, "max depth", "-");
	if (i->thresh)
		field(in, "tracing_thresh", "%u us: calls that long and longer, whole", i->thresh);
	field(in, "return values", "%s", tr_has_option(&in->td, "retval") ? "yes" : "no");
	print_started(in);
	print_duration(in);
	print_ended(in);
}

/* ---- what was stored, and what is missing ---- */

/* Calls the graph tracer saw but could not follow, if any: why, or the
 * total and a line per reason. */
static void print_missed(const struct info *in)
{
	uint64_t total = tr_counts_missed(&in->total);
	const char *name = "not graphed";

	for (unsigned i = 0; total && i < FT_MISSED_KINDS; i++) {
		if (in->total.missed[i] == total) {
			field(in, name, "%" PRIu64 " calls (%s)", total, tr_missed_why(i));
			return;
		}
	}
	if (total)
		field(in, name, "%" PRIu64 " calls", total);
	for (unsigned i = 0; i < FT_MISSED_KINDS; i++)
		if (in->total.missed[i])
			field(in, "", "%" PRIu64 " %s", in->total.missed[i], tr_missed_why(i));
}

/* ", in 8 segments (trace.dat.3 to trace.dat.10)"; "" for trace.dat. */
static const char *segments_text(const struct trace_data *td, char *buf, size_t len)
{
	const struct tr_trace_file *first = &td->files[0], *last = &td->files[td->nr_files - 1];

	if (first->segment < 0)
		snprintf(buf, len, "%s", "");
	else if (first == last)
		snprintf(buf, len, ", in 1 segment (trace.dat.%d)", first->segment);
	else
		snprintf(buf, len, ", in %u segments (trace.dat.%d to trace.dat.%d)",
			 td->nr_files, first->segment, last->segment);
	return buf;
}

/* The cap record --max-size set, and what it dropped. */
static void print_cut(const struct info *in)
{
	const struct tr_info *i = &in->td.info;
	uint64_t kept = tr_kept_ns(&in->td);
	char size[32], cut[192];

	if (!i->max_size)
		return;
	if (!i->cut.chunks) {
		field(in, "max size", "%s: nothing dropped",
		      tr_format_bytes(size, sizeof(size), i->max_size));
		return;
	}
	field(in, "max size", "%s", tr_format_cut(cut, sizeof(cut), i->max_size, &i->cut));
	if (kept)
		field(in, "", "kept: the last %.3f s of the recording", kept / 1e9);
}

/* What the rings lost, as LOST records say; a flight recording's
 * snapshot adds those said before the window its file holds (in records
 * the bound overwrote, or older than its calls). */
static void print_kernel_lost(const struct info *in, uint64_t lost)
{
	uint64_t before = in->td.info.snapshot.kev_lost_before;

	if (!before)
		field(in, "kernel lost", "%" PRIu64 " events%s", lost,
		      lost ? " (a CPU's ring was full): the counts above are short" : "");
	else if (lost)
		field(in, "kernel lost", "%" PRIu64 " events in the snapshot's window and %" PRIu64
		      " before it (a CPU's ring was full): the counts above are short", lost, before);
	else
		field(in, "kernel lost", "%" PRIu64 " events before the snapshot's window (a CPU's "
		      "ring was full), none said in it", before);
}

/* record -e's events, by kind; and where the counts fall short. */
static void print_kevents(const struct info *in)
{
	const struct tr_kevents *k = &in->td.kev;
	const char *asked = in->td.info.kevents;
	const uint64_t *n = k->counts;

	if (!k->present && asked)
		field(in, "kernel events", "none: -e %s was asked, and could not be had "
		      "(the recording said why)", asked);
	if (!k->present)
		return;
	if (k->bad[0]) {
		field(in, "kernel events", "unreadable: %s", k->bad);
		return;
	}
	field(in, "kernel events", "%" PRIu64 " system calls (%" PRIu64 " returned), %" PRIu64
	      " context switches, %" PRIu64 " wake-ups, %" PRIu64 " page faults%s%s%s",
	      n[KEV_SYS_ENTER], n[KEV_SYS_EXIT], n[KEV_SWITCH_OUT], n[KEV_WAKEUP], n[KEV_FAULT],
	      asked ? " (-e " : "", asked ? asked : "", asked ? ")" : "");
	if (k->own_work[KEV_SYS_ENTER] || k->own_work[KEV_FAULT])
		field(in, "fntrace's own", "%" PRIu64 " system calls and %" PRIu64 " page faults, "
		      "left out (its start-up and dlopen work)", k->own_work[KEV_SYS_ENTER],
		      k->own_work[KEV_FAULT]);
	field(in, "off CPU", "%" PRIu64 ".%06" PRIu64 " s, all threads", k->off_cpu_ns / 1000000000,
	      k->off_cpu_ns % 1000000000 / 1000);
	print_kernel_lost(in, n[KEV_LOST]);
	if (k->truncated)
		field(in, "", "the kevents file ends inside a record (its recorder was killed)");
}

static void print_storage(const struct info *in)
{
	const struct trace_data *td = &in->td;
	const struct tr_info *i = &td->info;
	uint64_t lost = in->total.lost + i->unsaid;
	char size[32], segments[96];

	field(in, "data directory", "%s (%s)", td->dir,
	      i->stream ? "what arrived of a remote recording cut short" :
	      i->unsealed ? "never sealed: its recorder did not finish" : "sealed");
	if (i->stream)
		field(in, "stream", "%s; the target counts what it could not send", i->stream);
	field(in, "trace.dat", "%s in %zu chunk%s%s%s",
	      tr_format_bytes(size, sizeof(size), td->trace_bytes), td->nr_chunks,
	      td->nr_chunks == 1 ? "" : "s", segments_text(td, segments, sizeof(segments)),
	      td->truncated ? ", the last cut short" : "");
	print_cut(in);
	field(in, "processes", "%u", td->nr_procs);
	field(in, "threads", "%u", td->nr_threads);
	field(in, "events", "%" PRIu64, in->total.events);
	field(in, "calls", "%" PRIu64 " (%s)", in->total.calls,
	      !strcmp(i->tracer, "function") ? "function hits" :
	      i->thresh ? "whole calls, and function entries" : "function entries");
	field(in, "lost", "%" PRIu64 " events%s", lost, lost ? " (the buffers were full)" : "");
	if (i->unsaid)
		field(in, "", "%" PRIu64 " of them in threads that ended, or were traced no "
		      "more, before they could say so", i->unsaid);
	print_missed(in);
	if (i->ending)
		field(in, "recording ended", "%s", i->ending);
	if (i->dropped)
		field(in, "dropped", "%" PRIu64 " events the recorder could not store",
		      i->dropped);
	print_kevents(in);
}

/* ---- processes and threads ---- */

static const char *program_of(const struct tr_process *p)
{
	for (unsigned i = 0; i < p->nr_modules; i++)
		if (p->modules[i].idx == 0)
			return p->modules[i].path;
	return p->notraced ? p->notraced : "?";
}

static void print_processes(const struct info *in)
{
	const struct trace_data *td = &in->td;

	fprintf(in->out, "\n%8s  %s\n", "PID", "PROGRAM");
	for (unsigned i = 0; i < td->nr_procs; i++) {
		const struct tr_process *p = &td->procs[i];

		fprintf(in->out, "%8u  %s", p->pid, program_of(p));
		if (p->image)
			fprintf(in->out, " (after exec %u)", p->image);
		fputs(p->notraced ? " (no call sites: not traced)\n" : "\n", in->out);
	}
}

static void print_threads(const struct info *in)
{
	const struct trace_data *td = &in->td;

	fprintf(in->out, "\n%8s  %8s  %-16s  %12s  %12s  %10s\n", "PID", "TID", "NAME",
		"EVENTS", "CALLS", "LOST");
	for (unsigned t = 0; t < td->nr_threads; t++) {
		const struct tr_thread *th = &td->threads[t];
		const struct tr_counts *c = &in->threads[t];

		fprintf(in->out, "%8u  %8u  %-16s  %12" PRIu64 "  %12" PRIu64 "  %10" PRIu64 "\n",
			th->pid, th->tid, th->comm, c->events, c->calls, c->lost);
	}
}

int info_run(const char *dir, FILE *out)
{
	struct info in = { .out = out };
	int err;

	if (tr_open(&in.td, dir)) {
		pr_error("%s", in.td.err);
		return 1;
	}
	err = count_threads(&in);
	if (err) {
		pr_error("%s/trace.dat: %s", in.td.dir, strerror(err));
	} else {
		print_run(&in);
		print_storage(&in);
		info_print_snapshot(&in.td, out);
		print_processes(&in);
		print_threads(&in);
	}
	free(in.threads);
	free(in.words);
	tr_close(&in.td);
	return err ? 1 : 0;
}
