// SPDX-License-Identifier: GPL-2.0
/*
 * The Chrome export's files: each opens with the names of every track and
 * closes with otherData, so that each loads alone.
 *
 * --split may cut a file while calls are open; each file must still
 * nest on its own.  The walk says each frame's depth, and the names of
 * the open ones are kept (open[], as deep as the stack): at a cut they
 * are closed with E events at the time of the thread's last event
 * written, and the next file opens them again, outermost first, with B
 * events at that same time.  Those E and B events carry "cat":"split",
 * which no viewer groups by: a reader adding files up counts a call once
 * by its unmarked B, in the file where it began.
 */
#include "export_chrome.h"
#include "../common/print.h"

#include <inttypes.h>
#include <string.h>

static void write_literal(struct chrome *c, const char *s)
{
	json_out_raw(&c->out, s, strlen(s));
}

/* The program a process ran, for its track's name. */
static const char *process_name(const struct tr_thread *th)
{
	const struct tr_process *proc = th->proc;
	const char *path = proc->notraced, *slash;

	for (unsigned i = 0; !path && i < proc->nr_modules; i++)
		if (proc->modules[i].idx == 0)
			path = proc->modules[i].path;
	if (!path)
		return th->comm;
	slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void write_metadata(struct chrome *c, const char *what, const char *name)
{
	char *p = chrome_begin_event(c, c->t0);

	p = PUT(p, ",\"ph\":\"M\",\"name\":\"");
	p = json_put(p, what, strlen(what));
	p = PUT(p, "\",\"args\":{\"name\":");
	json_out_done(&c->out, p);
	json_out_string(&c->out, name, strlen(name));
	write_literal(c, "}}");
}

/* The names of every track, at the head of every file: each file is
 * opened alone. */
static void write_track_names(struct chrome *c)
{
	const struct tr_thread *now = c->th, *prev = NULL;

	for (unsigned i = 0; i < c->ex->nr_threads; i++) {
		const struct tr_thread *th = c->ex->threads[i];

		chrome_set_thread(c, th);
		if (!prev || prev->pid != th->pid || prev->image != th->image)
			write_metadata(c, "process_name", process_name(th));
		write_metadata(c, "thread_name", th->comm);
		prev = th;
	}
	if (now)
		chrome_set_thread(c, now);
}

void chrome_start_file(struct chrome *c)
{
	c->file_start = json_out_bytes(&c->out);
	c->empty = 1;
	c->fresh = 1;
	write_literal(c, "{\"traceEvents\":[\n");
	write_track_names(c);
}

void chrome_end_file(struct chrome *c)
{
	const struct tr_info *info = &c->ex->td.info;
	char *p;

	write_literal(c, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"command\":");
	json_out_string(&c->out, info->command, strlen(info->command));
	write_literal(c, ",\"tracer\":");
	json_out_string(&c->out, info->tracer, strlen(info->tracer));
	p = json_out_room(&c->out);
	p = PUT(p, ",\"ts_zero_monotonic_ns\":\"");
	p = json_put_u64(p, c->t0);
	p = PUT(p, "\",\"file\":");
	p = json_put_u64(p, c->file);
	json_out_done(&c->out, PUT(p, "}}\n"));
}

/* --split: this file is full; the next starts with the track names. */
static int next_file(struct chrome *c)
{
	chrome_end_file(c);
	if (json_out_flush(&c->out) || export_next_piece(c->ex))
		return -1;
	c->out.f = c->ex->out.f;
	c->file++;
	chrome_start_file(c);
	return c->out.error ? -1 : 0;
}

/* Each file must hold more than its track names, or --split would never
 * end: they may take half of it at most. */
int chrome_check_split_size(struct chrome *c)
{
	uint64_t split = c->ex->opt->split_bytes;
	uint64_t head = json_out_bytes(&c->out) - c->file_start;

	if (!split || head < split / 2)
		return 0;
	pr_error("--split %" PRIu64 " is too small: the track names alone take %" PRIu64
		 " bytes of each file", split, head);
	return -1;
}

/* --split, with calls open: the file ends with their ends, innermost
 * first, at the time of the thread's last event; the next begins them
 * again, outermost first, at that same time, so that each file nests on
 * its own. */
int chrome_cut_file(struct chrome *c)
{
	const struct func_text *ft;

	for (unsigned d = c->nr_open; d-- > 0;)
		if (!(ft = chrome_func_text(c, c->open[d])) || chrome_write_edge(c, c->last_time, PH_E_CUT, ft))
			return -1;
	if (next_file(c))
		return -1;
	for (unsigned d = 0; d < c->nr_open; d++)
		if (!(ft = chrome_func_text(c, c->open[d])) || chrome_write_edge(c, c->last_time, PH_B_CUT, ft))
			return -1;
	return 0;
}
