// SPDX-License-Identifier: GPL-2.0
/*
 * --format chrome: the Trace Event format, JSON, which Perfetto UI,
 * chrome://tracing and speedscope load.  One track per thread:
 *
 *   {"traceEvents":[
 *   {"pid":7,"tid":7,"ts":0.000,"ph":"M","name":"process_name","args":{"name":"prog"}},
 *   {"pid":7,"tid":7,"ts":0.000,"ph":"M","name":"thread_name","args":{"name":"prog"}},
 *   {"pid":7,"tid":7,"ts":12.345,"ph":"B","name":"leaf"},
 *   {"pid":7,"tid":7,"ts":12.595,"ph":"E","name":"leaf"},
 *   {"pid":7,"tid":7,"ts":13.001,"ph":"i","s":"t","name":"a trace_marker write"},
 *   ...
 *   ],
 *   "displayTimeUnit":"ns",
 *   "otherData":{"command":"./prog","tracer":"function_graph",...}}
 *
 * A call is a begin ("B") at its entry and an end ("E") at its exit,
 * both named: speedscope ends a frame only with an E of the same name.
 * A whole call (tracing_thresh), known only at its exit, is one complete
 * event ("X"), which the viewers nest by its times.
 * It used to be one complete event ("X", ts and dur), but speedscope
 * (1.25) turns an X into an end at ts + dur, computed in floating point:
 * when a callee and its caller end in the same nanosecond, as a tail
 * call at -O2 makes them do, the two sums may differ in their last bit
 * (867.275 + 250.555 against 867.255 + 250.575), the caller's end sorts
 * first, and speedscope warns and drops it: a wrong picture.  An E has
 * its own decimal ts, so ends in the same nanosecond are the same
 * number, and of equal ends speedscope takes the one that matches the
 * top of its stack; they are written innermost first anyway, and every
 * viewer keeps the file's order among equal times.  The cost is size:
 * 1.7 times the bytes of X events (bench/micro.c's trace, 24 M calls:
 * 1.84 GB of X, 3.11 GB of B/E, 130 bytes a call), and about a fifth
 * more CPU time to write them, with put_ts()'s help.
 *
 * --split cuts the export into files that each load alone and nest on
 * their own (export_chrome_files.c).
 *
 * The args of a call (how it ended, if not by returning; its return
 * value; its source line, with --srcline) are on its E, where the format
 * merges them with the B's; the B has only the source line, known at
 * entry.  speedscope names a frame by its B's name and args: a function
 * is one frame whatever its calls returned, but speedscope says on the
 * console, for each E whose args differ from its B's, that it ended the
 * B's frame.
 *
 * args appear only when they have something to say: an event with none
 * is shorter, and speedscope names a frame by its name and args together.
 *
 * The values a call was given (-A) are known at entry: they are on its
 * B, "len":"5","arg2":"\"abc\"", keyed by the names the specs give them
 * (--auto-args, -A's :NAME), else by position (trace_args.h's
 * tr_arg_key), and each the report's text of it as a JSON string, so
 * that 64-bit values keep every digit and strings their escapes.  speedscope
 * then makes calls with different values different frames.  A typed
 * return value (-R) is the E's "retval", in the untyped one's place.
 *
 * Times are microseconds, the format's unit, with three decimals: every
 * nanosecond, counted from the trace's first event so that the numbers
 * stay short and exact in a double; otherData says when that was in
 * CLOCK_MONOTONIC.
 *
 * Memory: call_walk()'s stack and open[], one quoted name per function used, the
 * symbols of one process for the function tracer's callers, and the
 * output buffer, whatever the length of the trace.
 */
#include "export_chrome.h"
#include "arg_names.h"
#include "calls.h"
#include "trace_args.h"
#include "../common/array.h"
#include "../common/print.h"

#include <stdlib.h>
#include <string.h>

/* The time of the trace's first event, of any thread, so that --tid
 * keeps the times of a whole export.  A chunk's header cannot say it (a
 * thread's first chunk starts from 0 and an absolute time event), so
 * each thread's first chunk is read: at most once more what is read
 * anyway. */
static uint64_t trace_start(struct trace_data *td)
{
	uint64_t first = UINT64_MAX;

	for (unsigned i = 0; i < td->nr_threads; i++) {
		struct tr_cursor cur;
		const struct tr_event *ev;

		tr_cursor_init(&cur, td, &td->threads[i]);
		ev = tr_cursor_peek(&cur);
		if (ev && ev->time < first)
			first = ev->time;
		if (ev && ev->type == TR_CALL && ev->time - ev->value < first)
			first = ev->time - ev->value;
		tr_cursor_free(&cur);
	}
	/* Whole calls (tracing_thresh) began before their exits, before
	 * the first event perhaps by the whole run; the runtime's first
	 * clock sample, taken as it started, came before them all. */
	if (td->info.thresh && td->info.has_clock && td->info.clock_n0 < first)
		first = td->info.clock_n0;
	if (chrome_kevents_start(td) < first)
		first = chrome_kevents_start(td);
	return first == UINT64_MAX ? 0 : first;
}

void chrome_set_thread(struct chrome *c, const struct tr_thread *th)
{
	char *p = c->thread;

	p = PUT(p, "{\"pid\":");
	p = json_put_u64(p, th->pid);
	p = PUT(p, ",\"tid\":");
	p = json_put_u64(p, th->tid);
	p = PUT(p, ",\"ts\":");
	c->thread_len = p - c->thread;
}

/* ---- one event ---- */

/* time - t0 as microseconds with three decimals, as json_put_usec()
 * writes it.  Calls come tens of ns apart, so most events fall in the
 * microsecond of the one before: its digits are kept and copied, which
 * took an eighth off the CPU time of exporting bench/micro.c's trace. */
static inline char *put_ts(struct chrome *c, char *p, uint64_t time)
{
	uint64_t ns = time > c->t0 ? time - c->t0 : 0, us = ns / 1000;
	unsigned frac = ns % 1000;

	if (us != c->ts_us || !c->ts_len) {
		c->ts_len = json_put_u64(c->ts_text, us) - c->ts_text;
		c->ts_us = us;
	}
	memcpy(p, c->ts_text, sizeof(c->ts_text));	/* a fixed size: inline */
	p += c->ts_len;
	p[0] = '.';
	p[1] = '0' + frac / 100;
	p[2] = '0' + frac / 10 % 10;
	p[3] = '0' + frac % 10;
	return p + 4;
}

/* The thread's head and ts of an event, after the comma that separates
 * it from the one before; returns where the rest goes. */
char *chrome_begin_event(struct chrome *c, uint64_t time)
{
	char *p = json_out_room(&c->out);

	if (!c->empty)
		p = PUT(p, ",\n");
	c->empty = 0;
	memcpy(p, c->thread, sizeof(c->thread));	/* a fixed size: inline */
	p += c->thread_len;
	return put_ts(c, p, time);
}

/* Closes the event at p; 0, or -1 once a write has failed: there is no
 * use going on. */
int chrome_end_event(struct chrome *c, char *p)
{
	*p++ = '}';
	json_out_done(&c->out, p);
	return c->out.error ? -1 : 0;
}

/* q at p, in json_out_room()'s space; returns the end, which may be in a
 * new room if q was long. */
static char *put_quoted(struct chrome *c, char *p, const struct quoted *q)
{
	if (q->len > NAME_INLINE) {
		json_out_done(&c->out, p);
		json_out_raw(&c->out, q->s, q->len);
		return json_out_room(&c->out);
	}
	for (size_t i = 0; i < q->len; i += NAME_BLOCK)
		memcpy(p + i, q->s + i, NAME_BLOCK);
	return p + q->len;
}

static char *put_name(struct chrome *c, char *p, const struct func_text *ft)
{
	return put_quoted(c, PUT(p, ",\"name\":"), &ft->name);
}

static char *put_hex(char *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	int shift = 60;

	while (shift > 0 && !(v >> shift))
		shift -= 4;
	p = PUT(p, "0x");
	for (; shift >= 0; shift -= 4)
		*p++ = digits[(v >> shift) & 15];
	return p;
}

/* One member of args, after a comma if it is not the first. */
static char *put_key(char *p, int *first, const char *key, size_t len)
{
	if (!*first)
		*p++ = ',';
	*first = 0;
	return json_put(p, key, len);
}

#define PUT_KEY(p, first, lit)	put_key(p, first, lit, sizeof(lit) - 1)

/* The values of an ARGS event of func's, as members of args:
 * "len":"5", "arg2":"7" ... keyed by the names the specs give them
 * (arg_names.h); an enum's value by its name, as the report has it. */
static char *put_values(struct chrome *c, char *p, int *first, uint32_t func,
			const uint32_t *args, uint32_t words)
{
	char key[TR_ARG_KEY_MAX], member[TR_ARG_KEY_MAX + 3], text[TR_ARG_TEXT_MAX];
	const char *name = tr_func_name(c->th->proc, func), *value;
	struct tr_arg_keyer keyer;
	struct tr_args_iter it;
	struct tr_arg a;
	int len;

	tr_arg_keyer_init(&keyer, c->ex->arg_names, name);
	tr_args_iter_init(&it, args, words);
	while (tr_args_next(&it, &a)) {
		/* Keys are names and paths (p.a[1]): nothing to escape. */
		len = snprintf(member, sizeof(member), "\"%s\":", tr_arg_keyer_key(&keyer, &a, key));
		json_out_done(&c->out, put_key(p, first, member, len));
		value = tr_arg_value_text(c->ex->arg_names, name, &a, text);
		json_out_string(&c->out, value, strlen(value));
		p = json_out_room(&c->out);
	}
	return p;
}

/* A call's args: how it ended if it did not return, its return value
 * (typed if recorded so), its source line. */
static char *put_call_args(struct chrome *c, char *p, const struct call_event *ev,
			   const struct func_text *ft)
{
	static const char *const ends[] = {
		[CALL_UNWOUND] = "unwound",		/* longjmp, an exception */
		[CALL_CUT_BY_LOSS] = "events lost",	/* returned unseen */
		[CALL_UNFINISHED] = "unfinished",	/* running at the end */
	};
	int first = 1;

	p = PUT(p, ",\"args\":{");
	if (ev->end != CALL_RETURNED) {
		p = PUT_KEY(p, &first, "\"end\":\"");
		p = json_put(p, ends[ev->end], strlen(ends[ev->end]));
		*p++ = '"';
	}
	if (ev->args) {
		p = put_values(c, p, &first, ev->func, ev->args, ev->args_words);
	} else if (ev->has_retval) {
		p = PUT_KEY(p, &first, "\"retval\":\"");
		p = put_hex(p, ev->value);
		*p++ = '"';
	}
	if (ft->src.s)
		p = put_quoted(c, PUT_KEY(p, &first, "\"srcline\":"), &ft->src);
	*p++ = '}';
	return p;
}

/* A call's begin, or an end that says no more than it: the name, and
 * the source line, known at entry.  ph_cat: its "ph", and "cat":"split"
 * on the ends and begins that --split adds, so that a reader adding
 * files up can tell them. */
int chrome_write_edge(struct chrome *c, uint64_t time, const char *ph_cat, size_t len,
		      const struct func_text *ft)
{
	char *p = chrome_begin_event(c, time);

	p = json_put(p, ph_cat, len);
	p = put_name(c, p, ft);
	if (ft->src.s) {
		p = put_quoted(c, PUT(p, ",\"args\":{\"srcline\":"), &ft->src);
		*p++ = '}';
	}
	return chrome_end_event(c, p);
}

/* A call's begin with the values it was given, and its source line. */
static int write_begin_values(struct chrome *c, const struct call_event *ev,
			      const struct func_text *ft)
{
	char *p = chrome_begin_event(c, ev->time);
	int first = 1;

	p = put_name(c, PUT(p, ",\"ph\":\"B\""), ft);
	p = put_values(c, PUT(p, ",\"args\":{"), &first, ev->func, ev->args, ev->args_words);
	if (ft->src.s)
		p = put_quoted(c, PUT_KEY(p, &first, "\"srcline\":"), &ft->src);
	*p++ = '}';
	return chrome_end_event(c, p);
}

/* A call's entry: its begin, and its name kept at its depth. */
static int write_begin(struct chrome *c, const struct call_event *ev)
{
	const struct func_text *ft = chrome_func_text(c, ev->func);

	if (!ft)
		return -1;
	if (ev->depth >= c->open_cap &&
	    grow_array((void **)&c->open, &c->open_cap, ev->depth + 1, sizeof(*c->open))) {
		pr_error("out of memory");
		return -1;
	}
	c->open[ev->depth] = ev->func;
	c->nr_open = ev->depth + 1;
	if (ev->args)
		return write_begin_values(c, ev, ft);
	return chrome_write_edge(c, ev->time, PH_B, ft);
}

/* A call's exit: its end, with all its args.  The hot path of the
 * export with chrome_write_edge(): one room for the whole event. */
static int write_end(struct chrome *c, const struct call_event *ev)
{
	const struct func_text *ft = chrome_func_text(c, ev->func);
	char *p;

	if (!ft)
		return -1;
	c->nr_open = ev->depth;
	p = chrome_begin_event(c, ev->time);
	p = PUT(p, ",\"ph\":\"E\"");
	p = put_name(c, p, ft);
	if (ev->end != CALL_RETURNED || ev->has_retval || ev->args || ft->src.s)
		p = put_call_args(c, p, ev, ft);
	return chrome_end_event(c, p);
}

/* A whole call (tracing_thresh): one complete event ("X"), from its
 * start, as long as it lasted, written when it ended, after the calls it
 * made: viewers nest complete events by their times. */
static int write_whole(struct chrome *c, const struct call_event *ev)
{
	const struct func_text *ft = chrome_func_text(c, ev->func);
	char *p;

	if (!ft)
		return -1;
	p = chrome_begin_event(c, ev->start);
	p = PUT(p, ",\"ph\":\"X\",\"dur\":");
	p = json_put_usec(p, ev->time - ev->start);
	p = put_name(c, p, ft);
	if (ev->end != CALL_RETURNED || ft->src.s)
		p = put_call_args(c, p, ev, ft);
	return chrome_end_event(c, p);
}

/* An instant event of the thread ("s":"t"), up to its name. */
static char *begin_instant(struct chrome *c, uint64_t time)
{
	return PUT(chrome_begin_event(c, time), ",\"ph\":\"i\",\"s\":\"t\"");
}

static int write_marker(struct chrome *c, const struct call_event *ev)
{
	json_out_done(&c->out, PUT(begin_instant(c, ev->time), ",\"name\":"));
	json_out_string(&c->out, ev->text, ev->text_len);
	return chrome_end_event(c, json_out_room(&c->out));
}

static int write_lost(struct chrome *c, const struct call_event *ev)
{
	char *p = begin_instant(c, ev->time);

	p = PUT(p, ",\"name\":\"lost events\",\"args\":{\"count\":");
	if (ev->lost_unknown)
		p = PUT(p, "\"not known\"");
	else
		p = json_put_u64(p, ev->value);
	*p++ = '}';
	return chrome_end_event(c, p);
}

/* The function tracer's calls have no duration: instants, with the
 * caller as the kernel's "func <-caller" line has it. */
static int write_hit(struct chrome *c, const struct call_event *ev)
{
	const struct func_text *ft = chrome_func_text(c, ev->func);
	char buf[256];
	const char *caller;
	int first = 1;
	char *p;

	if (!ft)
		return -1;
	if (c->syms_proc != c->th->proc) {
		if (c->syms_proc)
			sym_table_free(&c->syms);
		c->syms_proc = NULL;
		if (sym_table_init(&c->syms, c->th->proc)) {
			pr_error("out of memory");
			return -1;
		}
		c->syms_proc = c->th->proc;
	}
	p = put_name(c, begin_instant(c, ev->time), ft);
	if (!ev->value && !ft->src.s && !ev->args)
		return chrome_end_event(c, p);
	p = PUT(p, ",\"args\":{");
	if (ev->args)
		p = put_values(c, p, &first, ev->func, ev->args, ev->args_words);
	if (ev->value) {
		caller = sym_name(&c->syms, ev->value, buf, sizeof(buf));
		json_out_done(&c->out, PUT_KEY(p, &first, "\"caller\":"));
		json_out_string(&c->out, caller, strlen(caller));
		p = json_out_room(&c->out);
	}
	if (ft->src.s)
		p = put_quoted(c, PUT_KEY(p, &first, "\"srcline\":"), &ft->src);
	*p++ = '}';
	return chrome_end_event(c, p);
}

/* 0, or -1: a write failed (said at the end), or something else, said.
 * --split starts a new file before an event, not after, so that no file
 * is left with the track names alone; and only once the file has an
 * event of its own, so that a stack deeper than SIZE still moves on. */
static int write_event(struct chrome *c, const struct call_event *ev)
{
	uint64_t split = c->ex->opt->split_bytes;
	int err;

	if (split && !c->fresh && json_out_bytes(&c->out) - c->file_start >= split &&
	    chrome_cut_file(c))
		return -1;
	switch (ev->kind) {
	case CALL_ENTER:
		err = write_begin(c, ev);
		break;
	case CALL_EXIT:
		err = write_end(c, ev);
		break;
	case CALL_MARKER:
		err = write_marker(c, ev);
		break;
	case CALL_LOST:
		err = write_lost(c, ev);
		break;
	case CALL_HIT:
		err = write_hit(c, ev);
		break;
	case CALL_WHOLE:
		err = write_whole(c, ev);
		break;
	default:
		return 0;
	}
	c->fresh = 0;
	c->last_time = ev->time;
	return err;
}

static int write_thread(struct chrome *c, const struct tr_thread *th)
{
	struct call_walk w;
	struct call_event ev;
	int got = 0, err = 0;

	c->th = th;
	c->nr_open = 0;
	chrome_set_thread(c, th);
	call_walk_init(&w, &c->ex->td, th);
	while (!err && (got = call_walk_next(&w, &ev)) > 0)
		err = write_event(c, &ev);
	call_walk_free(&w);
	if (got < 0) {
		pr_error("out of memory");
		return -1;
	}
	return err ? err : chrome_write_kevents(c, th);
}

static void chrome_free(struct chrome *c)
{
	chrome_names_free(c);
	if (c->syms_proc)
		sym_table_free(&c->syms);
	free(c->open);
	json_out_free(&c->out);
}

int export_chrome(struct export *ex)
{
	struct chrome c = { .ex = ex, .t0 = trace_start(&ex->td) };
	int err = 0;

	c.funcs = calloc(ex->td.nr_procs ? ex->td.nr_procs : 1, sizeof(*c.funcs));
	if (!c.funcs || json_out_init(&c.out, ex->out.f)) {
		pr_error("out of memory");
		chrome_free(&c);
		return -1;
	}
	chrome_start_file(&c);
	err = chrome_check_split_size(&c);
	for (unsigned i = 0; !err && i < ex->nr_threads; i++)
		err = write_thread(&c, ex->threads[i]);
	if (!err)
		chrome_end_file(&c);
	json_out_flush(&c.out);
	if (c.out.error)
		pr_error("cannot write %s: %s", ex->out.path ? ex->out.path : "standard output",
			 strerror(c.out.error));
	if (c.out.error)
		err = -1;
	chrome_free(&c);
	return err ? -1 : 0;
}
