// SPDX-License-Identifier: GPL-2.0
/*
 * The protocol buffers writer (pb_write.h): the buffer, strings made
 * valid UTF-8, and nested messages whose length comes last.
 */
#include "pb_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PB_FIRST_CAP	(PB_FLUSH_AT + (64u << 10))

int pb_writer_init(struct pb_writer *w, FILE *out)
{
	*w = (struct pb_writer) { .out = out, .cap = PB_FIRST_CAP };
	w->buf = malloc(w->cap);
	return w->buf ? 0 : -1;
}

void pb_writer_free(struct pb_writer *w)
{
	free(w->buf);
	*w = (struct pb_writer) { 0 };
}

int pb_grow(struct pb_writer *w, size_t n)
{
	size_t cap = w->cap;
	uint8_t *buf;

	if (w->out_of_memory)
		return 0;
	while (cap - w->len < n)
		cap *= 2;
	buf = realloc(w->buf, cap);
	if (!buf) {
		w->out_of_memory = 1;
		return 0;
	}
	w->buf = buf;
	w->cap = cap;
	return 1;
}

int pb_flush(struct pb_writer *w)
{
	if (w->out_of_memory) {
		errno = ENOMEM;
		return -1;
	}
	if (w->len && fwrite(w->buf, 1, w->len, w->out) != w->len)
		return -1;
	w->len = 0;
	return 0;
}

static void put_len_key(struct pb_writer *w, unsigned field, size_t len)
{
	uint8_t *p = w->buf + w->len;

	p = pb_varint_at(p, (uint64_t)field << 3 | PB_WIRE_LEN);
	w->len = pb_varint_at(p, len) - w->buf;
}

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0.
 * RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void pb_text(struct pb_writer *w, unsigned field, const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	uint8_t *p;

	if (!pb_room(w, 2 * PB_VARINT_MAX + len))
		return;
	put_len_key(w, field, len);
	p = w->buf + w->len;
	for (size_t i = 0; i < len;) {
		size_t n = utf8_sequence(s + i, len - i);

		if (n == 0) {
			*p++ = '?';
			i++;
			continue;
		}
		memcpy(p, s + i, n);
		p += n;
		i += n;
	}
	w->len += len;
}

static unsigned varint_size(uint64_t v)
{
	unsigned n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* pb_end() of a body of 128 bytes or more: its length takes more than
 * the one byte pb_begin() left. */
void pb_end_long(struct pb_writer *w, size_t body)
{
	size_t len = w->len - body;
	unsigned extra;

	if (w->out_of_memory)
		return;
	extra = varint_size(len) - 1;
	if (!pb_room(w, extra))
		return;
	memmove(w->buf + body + extra, w->buf + body, len);
	pb_varint_at(w->buf + body - 1, len);
	w->len += extra;
}
