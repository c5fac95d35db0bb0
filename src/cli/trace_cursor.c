// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding one thread's events, chunk after chunk in seq order.
 *
 * Only the chunk being decoded is in memory.  TIME and CPU records change
 * the cursor's state and are not returned: to a reader they are part of
 * the next event, not events of their own.  A word the cursor cannot
 * decode (an unknown long type, or extra words past the chunk's end) ends
 * that chunk: without the type there is no way to know where the next
 * event starts.  The chunk is flagged so that the report can say so.
 */
#include "trace_reader.h"
#include "../common/trace_format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tr_cursor_init(struct tr_cursor *c, struct trace_data *td,
		    const struct tr_thread *th)
{
	memset(c, 0, sizeof(*c));
	c->td = td;
	c->th = th;
	c->cpu = TR_NO_CPU;
}

void tr_cursor_free(struct tr_cursor *c)
{
	free(c->words);
	c->words = NULL;
	c->cap = 0;
}

static int ensure_words(struct tr_cursor *c, size_t n)
{
	uint32_t *w;

	if (n <= c->cap)
		return 0;
	w = realloc(c->words, n * sizeof(*w));
	if (!w)
		return -1;
	c->words = w;
	c->cap = n;
	return 0;
}

/* 1: the next chunk is loaded (it may hold no events); 0: no more, or a
 * read failed (recorded in td->read_error: the report must not pass off a
 * partial trace as whole). */
static int load_chunk(struct tr_cursor *c)
{
	struct tr_chunk_ref *r;
	size_t n;

	if (c->next_chunk >= c->th->nr_chunks || c->td->read_error)
		return 0;
	r = &c->th->chunks[c->next_chunk++];
	n = r->bytes / 4;
	if (ensure_words(c, n ? n : 1)) {
		c->td->read_error = ENOMEM;
		return 0;
	}
	errno = 0;
	if (pread(c->td->fd, c->words, r->bytes, r->offset) != (ssize_t)r->bytes) {
		c->td->read_error = errno ? errno : EIO;
		return 0;
	}
	c->chunk = r;
	c->nr_words = n;
	c->pos = 0;
	c->ticks = r->start_time;
	c->cpu = r->cpu;
	return 1;
}

static uint64_t u64_at(const uint32_t *w)
{
	return w[0] | (uint64_t)w[1] << 32;
}

static void start_event(struct tr_cursor *c, struct tr_event *ev,
			enum tr_event_type type, uint32_t delta)
{
	c->ticks += delta;
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->time = tr_ticks_to_ns(c->td, c->ticks);
	ev->cpu = c->cpu;
	ev->comm = c->chunk->comm;
}

static void decode_short(struct tr_cursor *c, uint32_t w, struct tr_event *ev)
{
	c->pos++;
	if (!(w & 1)) {
		start_event(c, ev, TR_ENTRY, w >> (FT_ENTRY_ID_BITS + 1));
		ev->func = (w >> 1) & FT_ENTRY_MAX_ID;
	} else {
		start_event(c, ev, TR_EXIT, w >> 2);
		ev->exit_kind = TR_EXIT_PLAIN;
	}
}

/* Fills ev from a long event; returns 0 for TIME and CPU, which only
 * change the cursor's state. */
static int fill_long(struct tr_cursor *c, unsigned type, uint32_t payload,
		     const uint32_t *x, struct tr_event *ev)
{
	switch (type) {
	case FT_LONG_TIME:
		c->ticks = u64_at(x);
		return 0;
	case FT_LONG_CPU:
		c->cpu = payload;
		return 0;
	case FT_LONG_ENTRY:
		start_event(c, ev, TR_ENTRY, payload);
		ev->func = x[0];
		return 1;
	case FT_LONG_FUNC:
		start_event(c, ev, TR_FUNC, payload);
		ev->func = x[0];
		ev->value = u64_at(x + 1);
		return 1;
	case FT_LONG_EXIT_RET:
		start_event(c, ev, TR_EXIT, payload);
		ev->exit_kind = TR_EXIT_RET;
		ev->value = u64_at(x);
		return 1;
	case FT_LONG_UNWIND:
		start_event(c, ev, TR_EXIT, payload);
		ev->exit_kind = TR_EXIT_UNWIND;
		return 1;
	case FT_LONG_LOST:
		start_event(c, ev, TR_LOST, 0);
		ev->value = u64_at(x);
		ev->depth = payload;
		return 1;
	case FT_LONG_OVERRUN:
		/* A running total: the thread keeps the highest. */
		if (u64_at(x) > c->th->overruns)
			c->td->threads[c->th - c->td->threads].overruns = u64_at(x);
		return 0;
	default: /* FT_LONG_MARKER */
		start_event(c, ev, TR_MARKER, 0);
		ev->text = (const char *)x;
		ev->text_len = payload;
		return 1;
	}
}

/* 1: an event in ev, 0: state only, -1: undecodable. */
static int decode_long(struct tr_cursor *c, uint32_t w, struct tr_event *ev)
{
	unsigned type = (w >> 2) & 0x3f;
	uint32_t payload = w >> 8;
	int extra = ft_event_words(w) - 1;
	const uint32_t *x = c->words + c->pos + 1;

	if (extra < 0 || (size_t)c->pos + 1 + extra > c->nr_words)
		return -1;
	c->pos += 1 + extra;
	return fill_long(c, type, payload, x, ev);
}

static int decode(struct tr_cursor *c, struct tr_event *ev)
{
	for (;;) {
		uint32_t w;
		int got;

		if (c->pos >= c->nr_words) {
			if (!load_chunk(c))
				return 0;
			continue;
		}
		w = c->words[c->pos];
		if (w == 0) {	/* the zeroed tail of a chunk cut short */
			c->pos = c->nr_words;
			continue;
		}
		if ((w & 3) != 3) {
			decode_short(c, w, ev);
			return 1;
		}
		got = decode_long(c, w, ev);
		if (got > 0)
			return 1;
		if (got < 0) {
			c->chunk->bad = 1;
			c->pos = c->nr_words;
		}
	}
}

const struct tr_event *tr_cursor_peek(struct tr_cursor *c)
{
	if (!c->has_peeked) {
		if (!decode(c, &c->peeked))
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
	return decode(c, ev);
}
