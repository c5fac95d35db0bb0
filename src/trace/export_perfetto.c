// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace export --format perfetto: Perfetto's protobuf trace in its
 * TrackEvent form, which the Perfetto UI and trace_processor read, for
 * traces too big for JSON.
 *
 * A Trace message is nothing but `repeated TracePacket packet = 1`, so the
 * file is written one packet at a time, each a field 1 of its own:
 *
 *   sequence 1     a TrackDescriptor per process, then one per thread
 *   sequence 2+i   the i-th thread's calls, in time order, on its track
 *                  (a whole call, tracing_thresh's, when it ended):
 *     first packet        SEQ_INCREMENTAL_STATE_CLEARED; defaults: the
 *                         thread's track, a clock of deltas (ClockSnapshot)
 *     a call              TYPE_SLICE_BEGIN (name_iid) ... TYPE_SLICE_END
 *     its values (-A, -R) string debug annotations, as the report says
 *                         them: "arg1"... on the begin, "retval" on the end
 *     a function's name   InternedData.event_names { iid, name }, in the
 *                         packet that first refers to it on the sequence
 *     a trace_marker      TYPE_INSTANT named by its text
 *     lost events         TYPE_INSTANT "[LOST N EVENTS]", N annotated;
 *                         "[LOST EVENTS]" where how many is not known
 *     a function hit      TYPE_INSTANT (the function tracer), its caller
 *                         annotated
 *     --srcline           InternedData.source_locations beside the name,
 *                         source_location_iid beside name_iid
 *
 * Each thread is one packet sequence so that interning is per thread: a
 * bitmap of the function ids already given a name on the sequence, one
 * bit per function of the process, is all the memory that depends on the
 * trace, whatever its size.
 *
 * A call costs about 24 bytes (in the trace: 8).
 */
#include "export_perfetto.h"
#include "arg_names.h"
#include "calls.h"
#include "pb_write.h"
#include "perfetto_proto.h"
#include "../dwarf/srcline.h"
#include "symbols.h"
#include "trace_args.h"
#include "../common/print.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void perfetto_put_string(struct pb_writer *pb, unsigned field, const char *s)
{
	pb_text(pb, field, s, strlen(s));
}

/* ---- packets ---- */

/* One clock as a ClockSnapshot has it. */
static void snapshot_clock(struct perfetto *p, unsigned id, uint64_t time, int incremental)
{
	size_t clock = pb_begin(&p->pb, SNAPSHOT_CLOCKS);

	pb_uint(&p->pb, CLOCK_ID, id);
	pb_uint(&p->pb, CLOCK_TIMESTAMP, time);
	if (incremental)
		pb_uint(&p->pb, CLOCK_IS_INCREMENTAL, 1);
	pb_end(&p->pb, clock);
}

/* The sequence's first packet, as Perfetto's own SDK writes it: it
 * clears the sequence's state and sets the defaults its events rely on,
 * their track (so that no event names it) and their clock, one of the
 * sequence's own whose timestamps are each the time since the packet
 * before (a byte or two, not seven), starting at time.  The snapshot ties
 * that clock to the trace's; our CLOCK_MONOTONIC ns pass for BOOTTIME,
 * the clock Perfetto assumes: nothing else in the file has to line up
 * with them. */
static void sequence_clear(struct perfetto *p, uint64_t time)
{
	size_t packet = pb_begin(&p->pb, TRACE_PACKET);
	size_t defaults, event_defaults, snapshot;

	pb_uint(&p->pb, PACKET_SEQUENCE_ID, p->sequence);
	pb_uint(&p->pb, PACKET_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	defaults = pb_begin(&p->pb, PACKET_DEFAULTS);
	pb_uint(&p->pb, DEFAULTS_TIMESTAMP_CLOCK_ID, SEQUENCE_CLOCK);
	event_defaults = pb_begin(&p->pb, DEFAULTS_TRACK_EVENT);
	pb_uint(&p->pb, EVENT_TRACK_UUID, p->track);
	pb_end(&p->pb, event_defaults);
	pb_end(&p->pb, defaults);
	snapshot = pb_begin(&p->pb, PACKET_CLOCK_SNAPSHOT);
	snapshot_clock(p, BUILTIN_CLOCK_BOOTTIME, time, 0);
	snapshot_clock(p, SEQUENCE_CLOCK, time, 1);
	pb_end(&p->pb, snapshot);
	pb_end(&p->pb, packet);
	p->last_time = time;
	p->cleared = 1;
}

/* A packet of the current sequence at time, its fields to follow.  A
 * time before the last (which call_walk should never give) is written
 * whole, on the trace's clock, as the SDK does.  The packets after the
 * first do without SEQ_NEEDS_INCREMENTAL_STATE: it only tells a reader to
 * skip packets of a sequence whose start it missed, which a file never
 * has, and it would cost two bytes an event. */
size_t perfetto_packet_begin(struct perfetto *p, uint64_t time)
{
	size_t packet;

	if (!p->cleared)
		sequence_clear(p, time);
	packet = pb_begin(&p->pb, TRACE_PACKET);
	if (time >= p->last_time) {
		pb_uint(&p->pb, PACKET_TIMESTAMP, time - p->last_time);
		p->last_time = time;
	} else {
		pb_uint(&p->pb, PACKET_TIMESTAMP, time);
		pb_uint(&p->pb, PACKET_TIMESTAMP_CLOCK_ID, BUILTIN_CLOCK_BOOTTIME);
	}
	pb_uint(&p->pb, PACKET_SEQUENCE_ID, p->sequence);
	return packet;
}

static int packet_end(struct perfetto *p, size_t packet)
{
	pb_end(&p->pb, packet);
	return pb_flush_if_full(&p->pb);
}

/* ---- the tracks ---- */

/* The process's name: its main thread's in the last program it ran (the
 * threads are sorted by program, so a shell that exec'd is named by what
 * it became), else its first thread's. */
static const char *process_name(struct export *ex, unsigned first, unsigned end)
{
	for (unsigned i = end; i-- > first;)
		if (ex->threads[i]->tid == ex->threads[i]->pid)
			return ex->threads[i]->comm;
	return ex->threads[first]->comm;
}

static int write_process_track(struct perfetto *p, uint32_t pid, const char *name)
{
	size_t packet = pb_begin(&p->pb, TRACE_PACKET);
	size_t track, process;

	pb_uint(&p->pb, PACKET_SEQUENCE_ID, DESCRIPTOR_SEQUENCE);
	track = pb_begin(&p->pb, PACKET_TRACK_DESCRIPTOR);
	pb_uint(&p->pb, TRACK_UUID, PROCESS_TRACK(pid));
	process = pb_begin(&p->pb, TRACK_PROCESS);
	pb_uint(&p->pb, PROCESS_PID, pid);
	perfetto_put_string(&p->pb, PROCESS_NAME, name);
	pb_end(&p->pb, process);
	pb_end(&p->pb, track);
	return packet_end(p, packet);
}

static int write_thread_track(struct perfetto *p, const struct tr_thread *th)
{
	size_t packet = pb_begin(&p->pb, TRACE_PACKET);
	size_t track, thread;

	pb_uint(&p->pb, PACKET_SEQUENCE_ID, DESCRIPTOR_SEQUENCE);
	track = pb_begin(&p->pb, PACKET_TRACK_DESCRIPTOR);
	pb_uint(&p->pb, TRACK_UUID, THREAD_TRACK(th));
	thread = pb_begin(&p->pb, TRACK_THREAD);
	pb_uint(&p->pb, THREAD_PID, th->pid);
	pb_uint(&p->pb, THREAD_TID, th->tid);
	perfetto_put_string(&p->pb, THREAD_NAME, th->comm);
	pb_end(&p->pb, thread);
	pb_end(&p->pb, track);
	return packet_end(p, packet);
}

/* Every process's track, then every thread's: the threads are sorted by
 * pid, so each process is one run of them. */
static int write_tracks(struct perfetto *p)
{
	struct export *ex = p->ex;
	unsigned first = 0;

	for (unsigned i = 1; i <= ex->nr_threads; i++) {
		if (i < ex->nr_threads && ex->threads[i]->pid == ex->threads[first]->pid)
			continue;
		if (write_process_track(p, ex->threads[first]->pid,
					process_name(ex, first, i)))
			return -1;
		first = i;
	}
	for (unsigned i = 0; i < ex->nr_threads; i++)
		if (write_thread_track(p, ex->threads[i]))
			return -1;
	return 0;
}

/* ---- names ---- */

/* func's name: the funcs file's, its id spelt out if the file has none,
 * and for 0 a frame calls.h stands in for, entered while events were
 * lost. */
static const char *function_name(const struct perfetto *p, uint32_t func,
				 char *buf, size_t len)
{
	const char *name = func ? tr_func_name(p->th->proc, func) : "(unknown: events lost)";

	if (name)
		return name;
	snprintf(buf, len, "<id %" PRIu32 ">", func);
	return buf;
}

/* --srcline: where func is, as an InternedData SourceLocation of the
 * name's iid; 1 if it was written, 0 if the debug information does not
 * say. */
static int intern_location(struct perfetto *p, uint32_t func, const char *name)
{
	const char *where, *colon;
	size_t location;

	if (!p->ex->srclines || !func)
		return 0;
	where = tr_srcline(p->ex->srclines, p->th->proc, func);
	colon = where ? strrchr(where, ':') : NULL;
	if (!colon)
		return 0;
	location = pb_begin(&p->pb, INTERNED_SOURCE_LOCATIONS);
	pb_uint(&p->pb, SOURCE_IID, func + 1);
	pb_text(&p->pb, SOURCE_FILE_NAME, where, colon - where);
	perfetto_put_string(&p->pb, SOURCE_FUNCTION_NAME, name);
	pb_uint(&p->pb, SOURCE_LINE_NUMBER, strtoul(colon + 1, NULL, 10));
	pb_end(&p->pb, location);
	return 1;
}

/* The iid of func's name on this sequence (func + 1: iids are not 0),
 * its InternedData written into the packet the first time; 0 for an id
 * past the process's table, which has no bit. */
static uint64_t intern(struct perfetto *p, uint32_t func)
{
	size_t interned, entry;
	const char *name;
	char buf[32];

	if (func >= p->interned_bits)
		return 0;
	if (has_bit(p->interned, func))
		return func + 1;
	set_bit(p->interned, func);
	name = function_name(p, func, buf, sizeof(buf));
	interned = pb_begin(&p->pb, PACKET_INTERNED_DATA);
	entry = pb_begin(&p->pb, INTERNED_EVENT_NAMES);
	pb_uint(&p->pb, EVENT_NAME_ENTRY_IID, func + 1);
	perfetto_put_string(&p->pb, EVENT_NAME_ENTRY_NAME, name);
	pb_end(&p->pb, entry);
	if (intern_location(p, func, name))
		set_bit(p->located, func);
	pb_end(&p->pb, interned);
	return func + 1;
}

/* The event's name: func's iid from intern(), or its name in full; and
 * where it is, if known. */
static void name_function(struct perfetto *p, uint32_t func, uint64_t iid)
{
	char buf[32];

	if (!iid) {
		perfetto_put_string(&p->pb, EVENT_NAME, function_name(p, func, buf, sizeof(buf)));
		return;
	}
	pb_uint(&p->pb, EVENT_NAME_IID, iid);
	if (has_bit(p->located, func))
		pb_uint(&p->pb, EVENT_SOURCE_LOCATION_IID, iid);
}

/* ---- events ---- */

/* The TrackEvent of a packet, on the thread's track (the sequence's
 * default). */
size_t perfetto_event_begin(struct perfetto *p, unsigned type)
{
	size_t event = pb_begin(&p->pb, PACKET_TRACK_EVENT);

	pb_uint(&p->pb, EVENT_TYPE, type);
	return event;
}

static void annotate_uint(struct perfetto *p, const char *name, uint64_t value)
{
	size_t a = pb_begin(&p->pb, EVENT_DEBUG_ANNOTATIONS);

	perfetto_put_string(&p->pb, ANNOTATION_NAME, name);
	pb_uint(&p->pb, ANNOTATION_UINT_VALUE, value);
	pb_end(&p->pb, a);
}

void perfetto_annotate_string(struct perfetto *p, const char *name, const char *value)
{
	size_t a = pb_begin(&p->pb, EVENT_DEBUG_ANNOTATIONS);

	perfetto_put_string(&p->pb, ANNOTATION_NAME, name);
	perfetto_put_string(&p->pb, ANNOTATION_STRING_VALUE, value);
	pb_end(&p->pb, a);
}

/* An ARGS event's values of func's (none if words is 0), keyed by the
 * names the specs give them (arg_names.h); an enum's by its name. */
static void annotate_values(struct perfetto *p, uint32_t func, const uint32_t *args,
			    uint32_t words)
{
	char key[TR_ARG_KEY_MAX], text[TR_ARG_TEXT_MAX];
	const char *name = tr_func_name(p->th->proc, func);
	struct tr_arg_keyer keyer;
	struct tr_args_iter it;
	struct tr_arg a;

	tr_arg_keyer_init(&keyer, p->ex->arg_names, name);
	tr_args_iter_init(&it, args, words);
	while (tr_args_next(&it, &a))
		perfetto_annotate_string(p, tr_arg_keyer_key(&keyer, &a, key),
				tr_arg_value_text(p->ex->arg_names, name, &a, text));
}

static const char *end_reason(enum call_end end)
{
	switch (end) {
	case CALL_RETURNED:
		break;
	case CALL_UNWOUND:
		return "unwound";
	case CALL_CUT_BY_LOSS:
		return "returned while events were lost";
	case CALL_UNFINISHED:
		return "still running when the trace ends";
	}
	return NULL;
}

/* Most events are a slice's begin or end and nothing more, a name the
 * sequence has already interned at most: such a packet is written in one
 * go (pb_reserve()), the same bytes as perfetto_packet_begin() and the rest would
 * write, at a third of the cost.  Possible once the sequence has its
 * clock, for a time not before the last. */
#define EDGE_PACKET_MAX		48	/* 2 + 11 + 6 + 2 + 2 + 6 + 7, and spare */

static int can_write_edge(const struct perfetto *p, uint64_t time)
{
	return p->cleared && time >= p->last_time;
}

static void write_edge(struct perfetto *p, uint64_t time, unsigned type, uint32_t func)
{
	uint8_t *q = pb_reserve(&p->pb, EDGE_PACKET_MAX), *packet, *event;

	if (!q)
		return;
	packet = pb_put_begin(q, TRACE_PACKET);
	q = pb_put_uint(packet, PACKET_TIMESTAMP, time - p->last_time);
	q = pb_put_uint(q, PACKET_SEQUENCE_ID, p->sequence);
	event = pb_put_begin(q, PACKET_TRACK_EVENT);
	q = pb_put_uint(event, EVENT_TYPE, type);
	if (type == TYPE_SLICE_BEGIN) {
		q = pb_put_uint(q, EVENT_NAME_IID, func + 1);
		if (has_bit(p->located, func))
			q = pb_put_uint(q, EVENT_SOURCE_LOCATION_IID, func + 1);
	}
	pb_put_end(event, q);
	pb_put_end(packet, q);
	pb_commit(&p->pb, q);
	p->last_time = time;
}

static void write_enter(struct perfetto *p, const struct call_event *ev)
{
	size_t packet, event;
	uint64_t iid;

	if (can_write_edge(p, ev->time) && !ev->args && ev->func < p->interned_bits &&
	    has_bit(p->interned, ev->func)) {
		write_edge(p, ev->time, TYPE_SLICE_BEGIN, ev->func);
		return;
	}
	packet = perfetto_packet_begin(p, ev->time);
	iid = intern(p, ev->func);
	event = perfetto_event_begin(p, TYPE_SLICE_BEGIN);
	name_function(p, ev->func, iid);
	annotate_values(p, ev->func, ev->args, ev->args_words);
	pb_end(&p->pb, event);
	pb_end(&p->pb, packet);
}

static void write_exit(struct perfetto *p, const struct call_event *ev)
{
	const char *why = end_reason(ev->end);
	size_t packet, event;

	if (can_write_edge(p, ev->time) && !ev->has_retval && !ev->args && !why) {
		write_edge(p, ev->time, TYPE_SLICE_END, ev->func);
		return;
	}
	packet = perfetto_packet_begin(p, ev->time);
	event = perfetto_event_begin(p, TYPE_SLICE_END);
	if (ev->args)
		annotate_values(p, ev->func, ev->args, ev->args_words);
	else if (ev->has_retval)
		annotate_uint(p, "retval", ev->value);
	if (why)
		perfetto_annotate_string(p, "end", why);
	pb_end(&p->pb, event);
	pb_end(&p->pb, packet);
}

/* A whole call (tracing_thresh): a slice's begin at its start and end at
 * its exit, written when it ended, after the calls it made.  Its begin
 * is then older than the packet before: perfetto_packet_begin() gives it the
 * trace's clock, and trace_processor sorts a file's events by time. */
static void write_whole(struct perfetto *p, const struct call_event *ev)
{
	struct call_event begin = *ev;

	begin.time = ev->start;
	write_enter(p, &begin);
	write_exit(p, ev);
}

/* A trace_marker's text, less the newline a write usually ends with. */
static void write_marker(struct perfetto *p, const struct call_event *ev)
{
	size_t packet = perfetto_packet_begin(p, ev->time);
	size_t event = perfetto_event_begin(p, TYPE_INSTANT);
	uint32_t len = ev->text_len;

	if (len && ev->text[len - 1] == '\n')
		len--;
	pb_text(&p->pb, EVENT_NAME, ev->text, len);
	pb_end(&p->pb, event);
	pb_end(&p->pb, packet);
}

static void write_lost(struct perfetto *p, const struct call_event *ev)
{
	size_t packet = perfetto_packet_begin(p, ev->time);
	size_t event = perfetto_event_begin(p, TYPE_INSTANT);
	char name[48];

	if (ev->lost_unknown) {
		perfetto_put_string(&p->pb, EVENT_NAME, "[LOST EVENTS]");
	} else {
		snprintf(name, sizeof(name), "[LOST %" PRIu64 " EVENTS]", ev->value);
		perfetto_put_string(&p->pb, EVENT_NAME, name);
		annotate_uint(p, "events", ev->value);
	}
	pb_end(&p->pb, event);
	pb_end(&p->pb, packet);
}

/* The function tracer's symbols, for the process being written. */
static struct sym_table *callers(struct perfetto *p)
{
	if (p->syms_proc == p->th->proc)
		return &p->syms;
	if (p->syms_proc)
		sym_table_free(&p->syms);
	p->syms_proc = NULL;
	if (sym_table_init(&p->syms, p->th->proc))
		return NULL;
	p->syms_proc = p->th->proc;
	return &p->syms;
}

static int write_hit(struct perfetto *p, const struct call_event *ev)
{
	struct sym_table *syms = callers(p);
	size_t packet, event;
	uint64_t iid;
	char addr[32];

	if (!syms)
		return -1;
	packet = perfetto_packet_begin(p, ev->time);
	iid = intern(p, ev->func);
	event = perfetto_event_begin(p, TYPE_INSTANT);
	name_function(p, ev->func, iid);
	annotate_values(p, ev->func, ev->args, ev->args_words);
	perfetto_annotate_string(p, "caller", sym_name(syms, ev->value, addr, sizeof(addr)));
	pb_end(&p->pb, event);
	pb_end(&p->pb, packet);
	return 0;
}

static int write_event(struct perfetto *p, const struct call_event *ev)
{
	switch (ev->kind) {
	case CALL_ENTER:
		write_enter(p, ev);
		break;
	case CALL_EXIT:
		write_exit(p, ev);
		break;
	case CALL_MARKER:
		write_marker(p, ev);
		break;
	case CALL_LOST:
		write_lost(p, ev);
		break;
	case CALL_HIT:
		if (write_hit(p, ev))
			return -1;
		break;
	case CALL_WHOLE:
		write_whole(p, ev);
		break;
	}
	return pb_flush_if_full(&p->pb);
}

/* ---- threads ---- */

/* A new sequence for th: nothing interned on it yet.  One allocation
 * holds both bitmaps. */
static int sequence_start(struct perfetto *p, const struct tr_thread *th, uint32_t sequence)
{
	size_t bits = th->proc->nr_funcs;
	size_t words = (bits + 63) / 64;

	free(p->interned);
	p->interned = calloc(2 * words + 1, sizeof(*p->interned));
	if (!p->interned)
		return -1;
	p->located = p->interned + words;
	p->interned_bits = bits;
	p->th = th;
	p->sequence = sequence;
	p->track = THREAD_TRACK(th);
	p->cleared = 0;
	return 0;
}

/* 0, or -1 with errno. */
static int write_thread(struct perfetto *p, const struct tr_thread *th, uint32_t sequence)
{
	struct call_walk walk;
	struct call_event ev;
	int more, err = 0;

	if (sequence_start(p, th, sequence))
		return -1;
	call_walk_init(&walk, &p->ex->td, th);
	perfetto_kev_start(p);
	while (!err && (more = call_walk_next(&walk, &ev)) > 0)
		err = perfetto_kev_before(p, ev.time) || write_event(p, &ev);
	call_walk_free(&walk);
	if (!err && more == 0)
		err = perfetto_kev_before(p, UINT64_MAX);
	if (!err && more < 0) {
		errno = ENOMEM;
		err = -1;
	}
	return err;
}

static int write_trace(struct perfetto *p)
{
	if (write_tracks(p))
		return -1;
	for (unsigned i = 0; i < p->ex->nr_threads; i++)
		if (write_thread(p, p->ex->threads[i], DESCRIPTOR_SEQUENCE + 1 + i))
			return -1;
	return pb_flush(&p->pb);
}

int export_perfetto(struct export *ex)
{
	struct perfetto p = { .ex = ex };
	int err;

	/* Protobuf on a terminal is noise, and can leave it in a strange
	 * state: a mistake, surely. */
	if (!ex->out.path && isatty(fileno(ex->out.f))) {
		pr_error("perfetto's format is binary: give -o FILE, or redirect the output");
		return -1;
	}
	if (pb_writer_init(&p.pb, ex->out.f)) {
		pr_error("out of memory");
		return -1;
	}
	err = write_trace(&p);
	if (err && errno == ENOMEM)
		pr_error("out of memory");
	else if (err)
		pr_error("cannot write %s: %s", ex->out.path ? ex->out.path : "standard output",
			 strerror(errno));
	if (p.syms_proc)
		sym_table_free(&p.syms);
	free(p.interned);
	free(p.kev_interned);
	pb_writer_free(&p.pb);
	return err;
}
