// SPDX-License-Identifier: GPL-2.0
/*
 * `fntrace info` of a snapshot's data directory: when and why it was
 * taken, by whom, what the ring had lost and overwritten before it, and
 * the window of each thread: its first and last event, in seconds
 * before the snapshot.  A thread's first chunk in it tells how many of
 * its chunks came before (each context numbers its own from 0): those
 * were overwritten, or taken by a consuming reader.
 */
#include "info.h"
#include "trace_reader.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void __attribute__((format(printf, 3, 4)))
field(FILE *out, const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "%-16s ", name);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

static void print_when(FILE *out, const struct tr_snapshot *s)
{
	time_t t = (time_t)(s->realtime_ns / 1000000000);
	char when[64] = "-", zone[16] = "";

	if (t && strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime(&t)))
		strftime(zone, sizeof(zone), " %z", localtime(&t));
	field(out, "snapshot", "%u, taken %s.%06u%s", s->number, when,
	      (unsigned)(s->realtime_ns % 1000000000 / 1000), zone);
}

static void print_why(FILE *out, const struct tr_snapshot *s)
{
	const char *r = s->reason ? s->reason : "";

	if (!strcmp(r, "control"))
		field(out, "why", "1 written to the snapshot file, by pid %u", s->asked_by);
	else if (!strcmp(r, "program"))
		field(out, "why", "asked by thread %u of the program", s->asked_by);
	else if (!strcmp(r, "end"))
		field(out, "why", "the program ended: the ring's last window, kept as the "
		      "kernel keeps its buffer");
	else if (!strcmp(r, "stopped"))
		field(out, "why", "the recording stopped: the ring's window then");
	else if (!strcmp(r, "crash"))
		field(out, "why", "a crash: the ring's window once the process that crashed had "
		      "ended (the kernel's ftrace_dump_on_oops)");
	else
		field(out, "why", "%s", *r ? r : "-");
	if (s->why)
		field(out, "", "%s", s->why);
}

/* Chunks of a thread's contexts that came before its first in the
 * snapshot. */
static uint64_t chunks_before(const struct tr_thread *th)
{
	uint64_t n = th->nr_own_chunks ? ft_seq_number(th->chunks[0].seq) : 0;

	if (th->nr_chunks > th->nr_own_chunks)
		n += ft_seq_number(th->chunks[th->nr_own_chunks].seq);
	return n;
}

/* The last window, which the recorder copies itself. */
static int by_recorder(const struct tr_snapshot *s)
{
	return s->reason && (!strcmp(s->reason, "end") || !strcmp(s->reason, "stopped") ||
			     !strcmp(s->reason, "crash"));
}

static void print_losses(FILE *out, const struct trace_data *td)
{
	const struct tr_snapshot *s = &td->info.snapshot;
	uint64_t before = 0;
	unsigned threads = 0;

	for (unsigned t = 0; t < td->nr_threads; t++) {
		uint64_t n = chunks_before(&td->threads[t]);

		before += n;
		threads += n > 0;
	}
	field(out, "taken by", "%s %u, copied in %.3f ms (%u chunks%s)",
	      by_recorder(s) ? "the recorder, pid" : "thread", s->taken_by, s->copy_ns / 1e6,
	      s->chunks, s->skipped ? ", some changed hands: left out" : "");
	field(out, "lost before it", "%" PRIu64 " events (no chunk was free for them)", s->lost);
	if (s->chunk_size)
		field(out, "overwritten", "%" PRIu64 " chunks of older events (%u KB each at most), "
		      "of %u thread%s", before, s->chunk_size / 1024, threads, threads == 1 ? "" : "s");
	else
		field(out, "overwritten", "%" PRIu64 " chunks of older events, of %u thread%s",
		      before, threads, threads == 1 ? "" : "s");
	if (s->overtaken)
		field(out, "overtaken", "%" PRIu64 " chunks published while it was copied, a whole "
		      "turn of the ring: a thread's every chunk may have been overwritten, "
		      "not counted above", s->overtaken);
}

/* ---- each thread's window ---- */

/* Does the event at w happen, or only describe (a TIME, CPU, LOST,
 * ARGS...)? */
static int happens(uint32_t head)
{
	unsigned type = (head >> 2) & 0x3f;

	return (head & 3) != 3 || type == FT_LONG_ENTRY || type == FT_LONG_FUNC ||
	       type == FT_LONG_EXIT_RET || type == FT_LONG_UNWIND || type == FT_LONG_MARKER ||
	       type == FT_LONG_CALL;
}

/* The times (ns) of the first and last event of a chunk; 0 if it has
 * none. */
static int chunk_times(const struct trace_data *td, const struct tr_chunk_ref *r,
		       uint64_t *first, uint64_t *last)
{
	uint32_t *w = malloc(r->bytes ? r->bytes : 1);
	uint64_t now = r->start_time;
	unsigned n = r->bytes / 4, i = 0, events = 0;

	if (!w || tr_read_chunk(td, r, w)) {
		free(w);
		return 0;
	}
	while (i < n) {
		int len = ft_event_words(w[i]);

		if (len < 0 || i + len > n)
			break;
		now = ft_event_time(w + i, now);
		if (happens(w[i]) && !events++)
			*first = tr_ticks_to_ns(td, now);
		if (happens(w[i]))
			*last = tr_ticks_to_ns(td, now);
		i += len;
	}
	free(w);
	return events > 0;
}

/* A thread's window: the earliest first and latest last event of the
 * first and last chunks of each of its contexts. */
static int window(const struct trace_data *td, const struct tr_thread *th, uint64_t *from,
		  uint64_t *to)
{
	unsigned ends[4] = { 0, th->nr_own_chunks - 1, th->nr_own_chunks, th->nr_chunks - 1 };
	int found = 0;

	for (unsigned k = 0; k < 4; k++) {
		uint64_t first, last;

		if (ends[k] >= th->nr_chunks || (k < 2 && !th->nr_own_chunks) ||
		    !chunk_times(td, &th->chunks[ends[k]], &first, &last))
			continue;
		if (!found++ || first < *from)
			*from = first;
		if (found == 1 || last > *to)
			*to = last;
	}
	return found > 0;
}

static double seconds_before(uint64_t t, uint64_t taken)
{
	return ((double)t - (double)taken) / 1e9;
}

static void print_windows(FILE *out, const struct trace_data *td)
{
	uint64_t taken = td->info.snapshot.taken_ns;

	fprintf(out, "\nthe window of each thread, in seconds from the snapshot:\n");
	fprintf(out, "%8s  %8s  %-16s  %12s  %12s  %11s\n", "PID", "TID", "NAME", "FIRST",
		"LAST", "OVERWRITTEN");
	for (unsigned t = 0; t < td->nr_threads; t++) {
		const struct tr_thread *th = &td->threads[t];
		uint64_t from = 0, to = 0;

		fprintf(out, "%8u  %8u  %-16s  ", th->pid, th->tid, th->comm);
		if (window(td, th, &from, &to))
			fprintf(out, "%12.6f  %12.6f", seconds_before(from, taken),
				seconds_before(to, taken));
		else
			fprintf(out, "%12s  %12s", "-", "-");
		fprintf(out, "  %11" PRIu64 "\n", chunks_before(th));
	}
}

/* The earliest event of any thread (ns); 0 if none. */
static uint64_t first_call(const struct trace_data *td)
{
	uint64_t first = 0;

	for (unsigned t = 0; t < td->nr_threads; t++) {
		uint64_t from = 0, to = 0;

		if (window(td, &td->threads[t], &from, &to) && (!first || from < first))
			first = from;
	}
	return first;
}

/* record --overwrite -e: the recorder kept the kernel's events in a
 * bounded memory; do they cover the calls' window? */
static void print_kev_window(FILE *out, const struct trace_data *td)
{
	const struct tr_snapshot *s = &td->info.snapshot;
	uint64_t first = first_call(td);

	if (!s->has_kev)
		return;
	if (!s->kev_overwritten)
		field(out, "kernel window", "every kernel event since the recording began kept "
		      "(%" PRIu64 " at most)", s->kev_cap);
	else if (first && s->kev_whole_from > first)
		field(out, "kernel window", "whole only from %.6f s before the snapshot, later than "
		      "its calls (from %.6f s before): %" PRIu64 " older kernel events overwritten "
		      "(%" PRIu64 " kept at most)", -seconds_before(s->kev_whole_from, s->taken_ns),
		      -seconds_before(first, s->taken_ns), s->kev_overwritten, s->kev_cap);
	else
		field(out, "kernel window", "whole over the calls' window; %" PRIu64 " older "
		      "kernel events overwritten before it (%" PRIu64 " kept at most)",
		      s->kev_overwritten, s->kev_cap);
}

void info_print_snapshot(const struct trace_data *td, FILE *out)
{
	const struct tr_snapshot *s = &td->info.snapshot;

	if (!s->number)
		return;
	fputc('\n', out);
	print_when(out, s);
	print_why(out, s);
	print_losses(out, td);
	print_kev_window(out, td);
	print_windows(out, td);
}
