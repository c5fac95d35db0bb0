// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding one thread's events.  A thread writes two streams (see
 * ../common/trace_format.h): its own context's chunks and those of its
 * signal context, a handler that ran while the thread was inside the
 * tracer.  Each is decoded chunk after chunk in seq order, with its own
 * time chain, and the cursor hands out whichever stream's next event is
 * older: both are ticks of the same clock on the same thread, so the
 * handler's calls come where the signal arrived, nested in the frame it
 * interrupted.  A stream's graph depth is its own: a LOST from the signal
 * context gets the depth of the interrupted stream added.
 *
 * Only the chunk being decoded is in memory.  TIME and CPU records change
 * the stream's state and are not returned: to a reader they are part of
 * the next event, not events of their own.  A word the cursor cannot
 * decode (an unknown long type, or extra words past the chunk's end) ends
 * that chunk: without the type there is no way to know where the next
 * event starts.  The chunk is flagged so that the report can say so.
 *
 * An ARGS event is part of its call's entry (the event before it) or
 * exit (the event after it), never an event of its own.  A view may hold
 * an entry until its exit, chunks later (a leaf is known by its exit;
 * --min-duration waits for it), so an entry's ARGS are copied, one copy
 * per depth of the stream: the next entry at that depth comes after the
 * exit.  An exit's point into the chunk, as a marker's text does.
 */
#include "trace_reader.h"
#include "../common/array.h"
#include "../common/trace_format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int same_stream(const struct tr_chunk_ref *x, const struct tr_chunk_ref *y)
{
	struct ft_chunk_place px = tr_chunk_place(x), py = tr_chunk_place(y);

	return ft_same_stream(&px, &py);
}

/* The stream's last piece in the parts read before, if any. */
static const struct tr_chunk_ref *piece_before(const struct trace_data *td,
					       const struct tr_chunk_ref *first)
{
	for (size_t i = 0; i < td->nr_before; i++)
		if (same_stream(&td->before[i], first))
			return &td->before[i];
	return NULL;
}

/* A stream read in parts goes on from its last piece before: a gap
 * there is one inside the stream (follows_gap). */
static void stream_init(const struct trace_data *td, struct tr_stream *s,
			struct tr_chunk_ref *chunks, unsigned n)
{
	memset(s, 0, sizeof(*s));
	s->chunks = chunks;
	s->nr_chunks = n;
	s->cpu = TR_NO_CPU;
	s->before = n ? piece_before(td, chunks) : NULL;
}

void tr_cursor_init(struct tr_cursor *c, struct trace_data *td,
		    const struct tr_thread *th)
{
	memset(c, 0, sizeof(*c));
	c->td = td;
	c->th = th;
	stream_init(td, &c->own, th->chunks, th->nr_own_chunks);
	stream_init(td, &c->signal, th->chunks + th->nr_own_chunks,
		    th->nr_chunks - th->nr_own_chunks);
}

/* The last piece of the n chunks from first, into ends in place of the
 * stream's one before, or added. */
static int note_end(const struct tr_chunk_ref *first, unsigned n, struct tr_chunk_ref **ends,
		    size_t *nr, size_t *cap)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < *nr; i++)
		if (same_stream(&(*ends)[i], first)) {
			(*ends)[i] = first[n - 1];
			return 0;
		}
	if (grow_array((void **)ends, cap, *nr + 1, sizeof(**ends)))
		return -1;
	(*ends)[(*nr)++] = first[n - 1];
	return 0;
}

int tr_stream_ends(const struct trace_data *td, struct tr_chunk_ref **ends, size_t *nr)
{
	size_t cap = *nr;

	for (unsigned i = 0; i < td->nr_threads; i++) {
		const struct tr_thread *th = &td->threads[i];

		if (note_end(th->chunks, th->nr_own_chunks, ends, nr, &cap) ||
		    note_end(th->chunks + th->nr_own_chunks, th->nr_chunks - th->nr_own_chunks,
			     ends, nr, &cap))
			return -1;
	}
	return 0;
}

/* Deeper than any shadow stack: a damaged file's depth costs no memory. */
#define ARGS_MAX_DEPTH	(1u << 16)

static void stream_free(struct tr_stream *s)
{
	for (size_t i = 0; i < s->nr_args; i++)
		free(s->args[i].words);
	free(s->args);
	free(s->words);
	s->args = NULL;
	s->nr_args = 0;
	s->words = NULL;
	s->cap = 0;
}

void tr_cursor_free(struct tr_cursor *c)
{
	stream_free(&c->own);
	stream_free(&c->signal);
}

static int ensure_words(struct tr_stream *s, size_t n)
{
	uint32_t *w;

	if (n <= s->cap)
		return 0;
	w = realloc(s->words, n * sizeof(*w));
	if (!w)
		return -1;
	s->words = w;
	s->cap = n;
	return 0;
}

/*
 * Does r begin a thread: the start of its first chunk?  The stream may
 * have a thread before it, which had the tid before and ended.
 */
static int thread_begins(const struct tr_chunk_ref *r)
{
	return ft_seq_number(r->seq) == 0 && r->piece <= 1;
}

/*
 * Are events of the stream missing before r, which comes after last?  At
 * the stream's start (no last), if r is not the start of the thread's
 * first chunk: the events before were dropped (record
 * --max-size), overwritten (the ring), or taken before a recording of a
 * running process began.  Further on, or after a part read before, if r
 * is neither the piece that follows the last in its chunk nor the start
 * of the next chunk.  Pieces that do not say where they begin
 * (an older recorder) are taken to follow on.  A forked child's first
 * chunk is its own first: it starts at depth 0, the frames it inherited
 * being its parent's trace's.
 */
static int follows_gap(const struct tr_chunk_ref *last, const struct tr_chunk_ref *r)
{
	if (thread_begins(r))
		return 0;
	if (!last)
		return 1;
	if (r->seq == last->seq)
		return r->piece && last->piece && r->piece != last->piece + last->bytes;
	return r->seq != last->seq + 1 || r->piece > 1;
}

/*
 * After a gap, the calls open before it are not known to be the ones
 * open after it (its events may have returned from them and entered
 * others as deep): a LOST of no events closes them, saying that events
 * were lost there, and another opens the chunk's frames, unnamed, at the
 * depth its header says.  Where the stream begins, nothing was open and
 * nothing is said: the trace just begins there.  A thread that begins
 * after another of its tid closes, unsaid, what the other left open.
 */
static int gap_resumes(const struct tr_stream *s, const struct tr_chunk_ref *r)
{
	const struct tr_chunk_ref *last = s->chunk ? s->chunk : s->before;
	int open = r->depth > 1 ? TR_RESUME_OPEN : 0;

	if (thread_begins(r))
		return last ? TR_RESUME_RESTART : 0;
	if (!follows_gap(last, r))
		return 0;
	return last ? TR_RESUME_CLOSE | open : open;
}

/* 1: the next chunk is loaded (it may hold no events); 0: no more, or a
 * read failed (recorded in td->read_error: the report must not pass off a
 * partial trace as whole). */
static int load_chunk(struct tr_cursor *c, struct tr_stream *s)
{
	struct tr_chunk_ref *r;
	size_t n;

	if (s->next_chunk >= s->nr_chunks || c->td->read_error)
		return 0;
	r = &s->chunks[s->next_chunk++];
	n = r->bytes / 4;
	if (ensure_words(s, n ? n : 1)) {
		c->td->read_error = ENOMEM;
		return 0;
	}
	if ((c->td->read_error = tr_read_chunk(c->td, r, s->words)))
		return 0;
	s->resumes = gap_resumes(s, r);
	s->chunk = r;
	s->ret_args = NULL;
	s->nr_words = n;
	s->pos = 0;
	s->ticks = r->start_time;
	s->cpu = r->cpu;
	return 1;
}

static uint64_t u64_at(const uint32_t *w)
{
	return w[0] | (uint64_t)w[1] << 32;
}

static void start_event(struct tr_cursor *c, struct tr_stream *s, struct tr_event *ev,
			enum tr_event_type type, uint32_t delta)
{
	s->ticks += delta;
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->time = tr_ticks_to_ns(c->td, s->ticks);
	ev->cpu = s->cpu;
	ev->comm = s->chunk->comm;
}

/* A chunk that follows a gap begins with the LOSTs gap_resumes chose, of
 * no events counted: the gap may hold any number. */
static void resume_after_gap(struct tr_cursor *c, struct tr_stream *s, struct tr_event *ev)
{
	start_event(c, s, ev, TR_LOST, 0);
	if (s->resumes & (TR_RESUME_CLOSE | TR_RESUME_RESTART)) {
		ev->gap = !!(s->resumes & TR_RESUME_CLOSE);
		s->resumes &= ~(TR_RESUME_CLOSE | TR_RESUME_RESTART);
		ev->depth = 0;
	} else {
		s->resumes = 0;
		ev->depth = s->chunk->depth - 1;
	}
}

static void decode_short(struct tr_cursor *c, struct tr_stream *s, uint32_t w,
			 struct tr_event *ev)
{
	s->pos++;
	if (!(w & 1)) {
		start_event(c, s, ev, TR_ENTRY, w >> (FT_ENTRY_ID_BITS + 1));
		ev->func = (w >> 1) & FT_ENTRY_MAX_ID;
	} else {
		start_event(c, s, ev, TR_EXIT, w >> 2);
		ev->exit_kind = TR_EXIT_PLAIN;
	}
}

/* The thread's count is its streams' sums, as far as read: the highest
 * seen, since a thread may be read again from its start. */
static void note_missed(struct tr_cursor *c, struct tr_stream *s, unsigned why, uint64_t n)
{
	struct tr_thread *th = &c->td->threads[c->th - c->td->threads];
	uint64_t sum;

	if (why >= FT_MISSED_KINDS)
		return;
	s->missed[why] += n;
	sum = c->own.missed[why] + c->signal.missed[why];
	if (sum > th->missed[why])
		th->missed[why] = sum;
}

/* An older runtime's OVERRUN: the stream's running total so far. */
static void note_overruns(struct tr_cursor *c, struct tr_stream *s, uint64_t total)
{
	if (total > s->missed[FT_MISSED_OVERRUN])
		note_missed(c, s, FT_MISSED_OVERRUN, total - s->missed[FT_MISSED_OVERRUN]);
}

/* A whole call's duration in ns: from its start, that long before its
 * exit (the stream's time now), converted as an entry's time would be. */
static uint64_t whole_ns(struct tr_cursor *c, struct tr_stream *s, const uint32_t *took)
{
	uint64_t ticks = u64_at(took), start = ticks < s->ticks ? s->ticks - ticks : 0;
	uint64_t end = tr_ticks_to_ns(c->td, s->ticks), begin = tr_ticks_to_ns(c->td, start);

	return end > begin ? end - begin : 0;
}

/* Fills ev from a long event; returns 0 for TIME, CPU, OVERRUN and
 * MISSED, which only change the cursor's state. */
static int fill_long(struct tr_cursor *c, struct tr_stream *s, unsigned type,
		     uint32_t payload, const uint32_t *x, struct tr_event *ev)
{
	switch (type) {
	case FT_LONG_TIME:
		s->ticks = u64_at(x);
		return 0;
	case FT_LONG_CPU:
		s->cpu = payload;
		return 0;
	case FT_LONG_ENTRY:
		start_event(c, s, ev, TR_ENTRY, payload);
		ev->func = x[0];
		return 1;
	case FT_LONG_FUNC:
		start_event(c, s, ev, TR_FUNC, payload);
		ev->func = x[0];
		ev->value = u64_at(x + 1);
		return 1;
	case FT_LONG_EXIT_RET:
		start_event(c, s, ev, TR_EXIT, payload);
		ev->exit_kind = TR_EXIT_RET;
		ev->value = u64_at(x);
		return 1;
	case FT_LONG_UNWIND:
		start_event(c, s, ev, TR_EXIT, payload);
		ev->exit_kind = TR_EXIT_UNWIND;
		return 1;
	case FT_LONG_CALL:
		start_event(c, s, ev, TR_CALL, payload);
		ev->func = x[0];
		ev->depth = x[1] & FT_CALL_DEPTH_MASK;
		ev->exit_kind = x[1] & FT_CALL_UNWOUND ? TR_EXIT_UNWIND : TR_EXIT_PLAIN;
		ev->value = whole_ns(c, s, x + 2);
		return 1;
	case FT_LONG_LOST:
		start_event(c, s, ev, TR_LOST, 0);
		ev->value = u64_at(x);
		ev->depth = payload;
		return 1;
	case FT_LONG_OVERRUN:
		note_overruns(c, s, u64_at(x));
		return 0;
	case FT_LONG_MISSED:
		note_missed(c, s, payload, u64_at(x));
		return 0;
	case FT_LONG_ARGS:
		/* A call's own ARGS were taken with its entry: one here
		 * follows no entry, and says nothing. */
		if (payload & FT_ARGS_OF_RETURN) {
			s->ret_args = x;
			s->ret_words = payload & FT_ARGS_WORDS_MASK;
		}
		return 0;
	case FT_LONG_MARKER:
		start_event(c, s, ev, TR_MARKER, 0);
		ev->text = (const char *)x;
		ev->text_len = payload;
		return 1;
	case FT_LONG_STACK:
		start_event(c, s, ev, TR_STACK, 0);
		ev->args = x;
		ev->value = ft_stack_ids(payload << 8) | (uint64_t)ft_stack_addrs(payload << 8) << 32;
		ev->args_words = tr_stack_frames(ev) + ft_stack_addrs(payload << 8);
		return 1;
	default:	/* a type this reader does not know: skipped */
		return 0;
	}
}

/* 1: an event in ev, 0: state only, -1: undecodable. */
static int decode_long(struct tr_cursor *c, struct tr_stream *s, uint32_t w,
		       struct tr_event *ev)
{
	unsigned type = (w >> 2) & 0x3f;
	uint32_t payload = w >> 8;
	int extra = ft_event_words(w) - 1;
	const uint32_t *x = s->words + s->pos + 1;

	if (extra < 0 || (size_t)s->pos + 1 + extra > s->nr_words)
		return -1;
	s->pos += 1 + extra;
	return fill_long(c, s, type, payload, x, ev);
}

/* Where the ARGS of a call entered at the stream's depth go: n words,
 * or NULL to drop them (too deep, or out of memory: then said). */
static uint32_t *args_copy(struct tr_cursor *c, struct tr_stream *s, uint32_t n)
{
	struct tr_args_copy *a;
	uint32_t *w;

	if (s->depth >= ARGS_MAX_DEPTH)
		return NULL;
	if (s->depth >= s->nr_args &&
	    grow_array((void **)&s->args, &s->nr_args, s->depth + 1, sizeof(*s->args)))
		goto nomem;
	a = &s->args[s->depth];
	if (n > a->cap) {
		w = realloc(a->words, n * sizeof(*w));
		if (!w)
			goto nomem;
		a->words = w;
		a->cap = n;
	}
	return a->words;
nomem:
	c->td->read_error = ENOMEM;
	return NULL;
}

/* The ARGS right after an entry (or a FUNC) are the call's. */
static void take_call_args(struct tr_cursor *c, struct tr_stream *s, struct tr_event *ev)
{
	uint32_t head = s->words[s->pos];
	uint32_t n = (head >> 8) & FT_ARGS_WORDS_MASK;
	uint32_t *copy;

	if ((head >> 8) & FT_ARGS_OF_RETURN)
		return;
	if (n > s->nr_words - s->pos - 1)
		return;		/* not whole: decode() flags the chunk */
	s->pos += 1 + n;
	copy = n ? args_copy(c, s, n) : NULL;
	if (!copy)
		return;
	memcpy(copy, s->words + s->pos - n, n * sizeof(*copy));
	ev->args = copy;
	ev->args_words = n;
}

/* The low byte of an ARGS event's head word. */
#define ARGS_HEAD	(FT_LONG_ARGS << 2 | 3)

/* Does an ARGS event come next, or did a return's come before? */
static inline int args_near(const struct tr_stream *s)
{
	return s->ret_args ||
	       (s->pos < s->nr_words && (s->words[s->pos] & 0xff) == ARGS_HEAD);
}

/* Gives the event just decoded the ARGS that belong to it. */
static void attach_args(struct tr_cursor *c, struct tr_stream *s, struct tr_event *ev)
{
	if (ev->type == TR_EXIT && s->ret_args) {
		ev->args = s->ret_args;
		ev->args_words = s->ret_words;
	}
	s->ret_args = NULL;
	if ((ev->type == TR_ENTRY || ev->type == TR_FUNC) && s->pos < s->nr_words &&
	    (s->words[s->pos] & 0xff) == ARGS_HEAD)
		take_call_args(c, s, ev);
}

static int decode(struct tr_cursor *c, struct tr_stream *s, struct tr_event *ev)
{
	for (;;) {
		uint32_t w;
		int got;

		if (s->resumes) {
			resume_after_gap(c, s, ev);
			return 1;
		}
		if (s->pos >= s->nr_words) {
			if (!load_chunk(c, s))
				return 0;
			continue;
		}
		w = s->words[s->pos];
		if (w == 0) {	/* the zeroed tail of a chunk cut short */
			s->pos = s->nr_words;
			continue;
		}
		if ((w & 3) != 3) {
			decode_short(c, s, w, ev);
		} else if ((got = decode_long(c, s, w, ev)) <= 0) {
			if (got < 0) {
				s->chunk->bad = 1;
				s->pos = s->nr_words;
			}
			continue;
		}
		if (args_near(s))
			attach_args(c, s, ev);
		return 1;
	}
}

/* The stream's next event, decoded ahead so that the merge can compare
 * times (in ticks: finer than the nanoseconds they convert to). */
static const struct tr_event *stream_peek(struct tr_cursor *c, struct tr_stream *s)
{
	if (!s->has_next && decode(c, s, &s->next)) {
		s->has_next = 1;
		s->next_ticks = s->ticks;
	}
	return s->has_next ? &s->next : NULL;
}

/* The depth of a stream's graph after ev, as the report will count it. */
static void follow_depth(struct tr_stream *s, const struct tr_event *ev)
{
	if (ev->type == TR_ENTRY)
		s->depth++;
	else if (ev->type == TR_EXIT && s->depth)
		s->depth--;
	else if (ev->type == TR_LOST)
		s->depth = ev->depth;
}

/* The older of the two streams' next events; on a tie, the thread's own
 * (the signal context only ever runs inside it). */
static int merged_next(struct tr_cursor *c, struct tr_event *ev)
{
	const struct tr_event *own;
	const struct tr_event *sig;
	struct tr_stream *s;

	/* Most threads never had a signal context: decode straight into ev,
	 * not into the stream's lookahead to be copied out (the copy, read
	 * wider than it was written, stalled on store forwarding). */
	if (!c->signal.nr_chunks && !c->own.has_next) {
		if (!decode(c, &c->own, ev))
			return 0;
		follow_depth(&c->own, ev);
		return 1;
	}
	own = stream_peek(c, &c->own);
	sig = stream_peek(c, &c->signal);

	if (!own && !sig)
		return 0;
	s = !sig || (own && c->own.next_ticks <= c->signal.next_ticks) ? &c->own : &c->signal;
	*ev = s->next;
	s->has_next = 0;
	follow_depth(s, ev);
	if (s == &c->signal && ev->type == TR_LOST)
		ev->depth += c->own.depth;
	return 1;
}

const struct tr_event *tr_cursor_peek(struct tr_cursor *c)
{
	if (!c->has_peeked) {
		if (!merged_next(c, &c->peeked))
			return NULL;
		c->has_peeked = 1;
	}
	return &c->peeked;
}

int tr_cursor_next(struct tr_cursor *c, struct tr_event *ev)
{
	if (c->has_peeked) {
		*ev = c->peeked;
		c->has_peeked = 0;
		return 1;
	}
	return merged_next(c, ev);
}
