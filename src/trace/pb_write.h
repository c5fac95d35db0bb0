/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A protocol buffers writer for output written as it is made, message
 * after message, never held whole.
 *
 * The wire format: each field is a key, the varint (number << 3 | wire
 * type), then its value:
 *
 *   VARINT (0)   the value in 7-bit groups, lowest first, the top bit of
 *                each byte saying another follows: 300 is ac 02
 *   LEN (2)      the length as a varint, then that many bytes: strings
 *                and nested messages
 *
 * A nested message's length is known only once it is written:
 * pb_begin() leaves one byte for it, pb_end() writes it there, and in the
 * rare case of a body of 128 bytes or more moves the body along to make
 * room for a longer varint.
 *
 * Everything goes to a buffer that grows to hold the largest message
 * begun since the last pb_flush(); the caller flushes between top-level
 * messages, where no pb_begin() is open.  Out of memory, writing stops
 * and pb_flush() says so: the caller needs no check per field.
 */
#ifndef FNTRACE_PB_WRITE_H
#define FNTRACE_PB_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PB_VARINT_MAX	10	/* bytes of a 64-bit varint */
#define PB_FLUSH_AT	(256u << 10)	/* pb_flush_if_full()'s threshold */

enum pb_wire_type {
	PB_WIRE_VARINT = 0,
	PB_WIRE_LEN = 2,
};

struct pb_writer {
	FILE *out;
	uint8_t *buf;
	size_t len, cap;
	int out_of_memory;
};

/* 0, or -1 out of memory. */
int pb_writer_init(struct pb_writer *w, FILE *out);
void pb_writer_free(struct pb_writer *w);

/* Writes out what is buffered: 0, or -1 with errno (ENOMEM if the
 * writer ran out of memory, and then nothing is written). */
int pb_flush(struct pb_writer *w);

/* Room for n more bytes: 1, or 0 out of memory. */
int pb_grow(struct pb_writer *w, size_t n);

static inline int pb_room(struct pb_writer *w, size_t n)
{
	return w->cap - w->len >= n || pb_grow(w, n);
}

static inline uint8_t *pb_varint_at(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)v | 0x80;
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* A uint32/uint64/bool/enum field, or an int32/int64 one whose value is
 * never negative. */
static inline void pb_uint(struct pb_writer *w, unsigned field, uint64_t v)
{
	if (!pb_room(w, 2 * PB_VARINT_MAX))
		return;
	uint8_t *p = pb_varint_at(w->buf + w->len, (uint64_t)field << 3 | PB_WIRE_VARINT);

	w->len = pb_varint_at(p, v) - w->buf;
}

/* A string field: len bytes of text, which protobuf wants as UTF-8, so
 * each byte that does not make valid UTF-8 is written as '?'. */
void pb_text(struct pb_writer *w, unsigned field, const char *text, size_t len);

/* A nested message in field: its fields follow, then pb_end() with what
 * pb_begin() returned.  Begins nest.  Inline: every event is a few of
 * them. */
static inline size_t pb_begin(struct pb_writer *w, unsigned field)
{
	if (pb_room(w, PB_VARINT_MAX + 1)) {
		uint8_t *p = pb_varint_at(w->buf + w->len, (uint64_t)field << 3 | PB_WIRE_LEN);

		w->len = p + 1 - w->buf;	/* the length's first byte, for pb_end() */
	}
	return w->len;
}

void pb_end_long(struct pb_writer *w, size_t body);

static inline void pb_end(struct pb_writer *w, size_t body)
{
	size_t len = w->len - body;

	if (len < 0x80 && !w->out_of_memory)
		w->buf[body - 1] = (uint8_t)len;
	else
		pb_end_long(w, body);
}

/*
 * A message known to be short (under 128 bytes, with all it nests),
 * written through a local pointer after one check for room: the writer's
 * own fields are not reloaded after every byte stored, which matters for
 * millions of small messages.
 *
 *	uint8_t *q = pb_reserve(w, most), *m;
 *	if (q) {
 *		m = pb_put_begin(q, field);
 *		q = pb_put_uint(m, field, v);
 *		pb_put_end(m, q);
 *		pb_commit(w, q);
 *	}
 */
static inline uint8_t *pb_reserve(struct pb_writer *w, size_t most)
{
	return pb_room(w, most) ? w->buf + w->len : NULL;
}

static inline uint8_t *pb_put_uint(uint8_t *q, unsigned field, uint64_t v)
{
	return pb_varint_at(pb_varint_at(q, (uint64_t)field << 3 | PB_WIRE_VARINT), v);
}

/* The body's start: its length goes in the byte before. */
static inline uint8_t *pb_put_begin(uint8_t *q, unsigned field)
{
	return pb_varint_at(q, (uint64_t)field << 3 | PB_WIRE_LEN) + 1;
}

static inline void pb_put_end(uint8_t *body, const uint8_t *end)
{
	body[-1] = (uint8_t)(end - body);
}

static inline void pb_commit(struct pb_writer *w, const uint8_t *end)
{
	w->len = end - w->buf;
}

/* pb_flush() once the buffer holds PB_FLUSH_AT bytes: 0, or -1. */
static inline int pb_flush_if_full(struct pb_writer *w)
{
	return w->len < PB_FLUSH_AT ? 0 : pb_flush(w);
}

#endif
