// SPDX-License-Identifier: GPL-2.0
/*
 * An ARGS event's values as text (trace_args.h).  Everything is written
 * through a sink that never passes the caller's buffer: what does not fit
 * is dropped, and the end of what did becomes "...".
 */
#include "trace_args.h"
#include "../common/trace_format.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tr_args_iter_init(struct tr_args_iter *it, const uint32_t *words, uint32_t nr)
{
	memset(it, 0, sizeof(*it));
	it->words = words;
	it->nr = nr;
}

int tr_args_next(struct tr_args_iter *it, struct tr_arg *a)
{
	uint32_t head, len;

	if (it->at >= it->nr)
		return 0;
	head = it->words[it->at];
	len = ft_arg_words(head);
	if (len > it->nr - it->at) {
		it->at = it->nr;
		return 0;
	}
	a->type = head & 0xff;
	a->pos = (head >> 8) & 0xff;
	a->size = (head >> 16) & 0xff;
	a->truncated = !!(head & FT_ARG_TRUNCATED);
	a->offset = (head >> FT_ARG_OFFSET_SHIFT) & FT_ARG_OFFSET_MASK;
	a->in_fp = (a->type == FT_ARG_DOUBLE || a->type == FT_ARG_FLOAT) &&
		   !(head & FT_ARG_FP_IN_INT);
	a->value = it->words + it->at + 1;
	a->nth = ++it->seen[a->pos];
	it->at += len;
	return 1;
}

/* ---- a bounded buffer ---- */

struct sink {
	char *buf;
	size_t size, len;
	int full;		/* something did not fit */
};

static void put_char(struct sink *s, char ch)
{
	if (s->len + 1 < s->size)
		s->buf[s->len++] = ch;
	else
		s->full = 1;
}

static void put_str(struct sink *s, const char *text)
{
	while (*text && !s->full)
		put_char(s, *text++);
}

static size_t sink_end(struct sink *s)
{
	if (!s->size)
		return 0;
	s->buf[s->len] = '\0';
	if (s->full && s->size >= 4) {
		memcpy(s->buf + s->size - 4, "...", 4);
		s->len = s->size - 1;
	}
	return s->len;
}

/* ---- one value ---- */

static uint64_t value64(const struct tr_arg *a)
{
	return a->value[0] | (uint64_t)a->value[1] << 32;
}

/* An integer truncated to its size, then sign- or zero-extended. */
static uint64_t integer(const struct tr_arg *a)
{
	uint64_t v = value64(a);
	unsigned bits = a->size * 8;

	if (!a->size || a->size >= 8)
		return v;
	v &= ((uint64_t)1 << bits) - 1;
	if (a->type == FT_ARG_SIGNED && v >> (bits - 1))
		v |= ~(uint64_t)0 << bits;
	return v;
}

/* One byte of a quoted string or character, escaped as C would. */
static void put_escaped(struct sink *s, unsigned char ch, char quote)
{
	char hex[8];

	if (ch == quote || ch == '\\') {
		put_char(s, '\\');
		put_char(s, ch);
	} else if (ch == '\n') {
		put_str(s, "\\n");
	} else if (ch == '\t') {
		put_str(s, "\\t");
	} else if (ch < 0x20 || ch >= 0x7f) {
		snprintf(hex, sizeof(hex), "\\x%02x", ch);
		put_str(s, hex);
	} else {
		put_char(s, ch);
	}
}

static void put_character(struct sink *s, uint64_t v)
{
	char hex[24];

	put_char(s, '\'');
	if (v <= 0xff) {
		put_escaped(s, v, '\'');
	} else {
		snprintf(hex, sizeof(hex), "\\x%" PRIx64, v);
		put_str(s, hex);
	}
	put_char(s, '\'');
}

static void put_string(struct sink *s, const struct tr_arg *a)
{
	const unsigned char *text = (const unsigned char *)a->value;

	put_char(s, '"');
	for (unsigned i = 0; i < a->size && !s->full; i++)
		put_escaped(s, text[i], '"');
	put_char(s, '"');
	if (a->truncated)
		put_str(s, "...");
}

/* The fewest digits that read back as the same double: 0.1, not
 * 0.10000000000000001; 17 always do. */
static void put_double(struct sink *s, double d)
{
	char text[40];

	for (int digits = 15; digits <= 17; digits++) {
		snprintf(text, sizeof(text), "%.*g", digits, d);
		if (strtod(text, NULL) == d)
			break;
	}
	put_str(s, text);
}

static void put_float(struct sink *s, uint32_t bits)
{
	char text[40];
	float f;

	memcpy(&f, &bits, sizeof(f));
	for (int digits = 6; digits <= 9; digits++) {
		snprintf(text, sizeof(text), "%.*g", digits, (double)f);
		if (strtof(text, NULL) == f)
			break;
	}
	put_str(s, text);
}

static void put_number(struct sink *s, const char *format, uint64_t v)
{
	char text[48];

	snprintf(text, sizeof(text), format, v);
	put_str(s, text);
}

/* Only a string may have fewer than two value words: nothing else reads
 * them before its type is known. */
static void put_value(struct sink *s, const struct tr_arg *a)
{
	uint64_t bits;
	double d;

	switch (a->type) {
	case FT_ARG_SIGNED:
		put_number(s, "%" PRId64, integer(a));
		break;
	case FT_ARG_UNSIGNED:
		put_number(s, "%" PRIu64, integer(a));
		break;
	case FT_ARG_HEX:
	case FT_ARG_POINTER:
		put_number(s, "0x%" PRIx64, integer(a));
		break;
	case FT_ARG_CHAR:
		put_character(s, integer(a));
		break;
	case FT_ARG_BOOL:
		put_str(s, integer(a) ? "true" : "false");
		break;
	case FT_ARG_DOUBLE:
		bits = value64(a);
		memcpy(&d, &bits, sizeof(d));
		put_double(s, d);
		break;
	case FT_ARG_FLOAT:
		put_float(s, a->value[0]);
		break;
	case FT_ARG_STRING:
		put_string(s, a);
		break;
	case FT_ARG_BAD_STRING:
		if (integer(a))
			put_number(s, "0x%" PRIx64 " (unreadable)", integer(a));
		else
			put_str(s, "(null)");
		break;
	default:	/* a type this reader does not know */
		put_char(s, '?');
	}
}

size_t tr_arg_format(const struct tr_arg *a, char *buf, size_t size)
{
	struct sink s = { .buf = buf, .size = size };

	put_value(&s, a);
	return sink_end(&s);
}

size_t tr_args_format_named(const uint32_t *words, uint32_t nr, tr_arg_labeler labeler,
			    const void *ctx, char *buf, size_t size)
{
	struct sink s = { .buf = buf, .size = size };
	struct tr_args_iter it;
	struct tr_arg a;
	int first = 1;

	tr_args_iter_init(&it, words, nr);
	while (!s.full && tr_args_next(&it, &a)) {
		struct tr_arg_label label = { NULL, NULL };

		if (labeler)
			labeler(ctx, &a, &label);
		if (!first)
			put_str(&s, ", ");
		first = 0;
		if (label.name) {
			put_str(&s, label.name);
			put_char(&s, '=');
		}
		if (label.value)
			put_str(&s, label.value);
		else
			put_value(&s, &a);
	}
	return sink_end(&s);
}

uint64_t tr_arg_integer(const struct tr_arg *a)
{
	return integer(a);
}

size_t tr_args_format(const uint32_t *words, uint32_t nr, char *buf, size_t size)
{
	return tr_args_format_named(words, nr, NULL, NULL, buf, size);
}

const char *tr_arg_key(const struct tr_arg *a, char *buf, size_t size)
{
	int len = a->pos ? snprintf(buf, size, "arg%u", a->pos) :
			   snprintf(buf, size, "retval");

	if (a->nth > 1 && len >= 0 && (size_t)len < size)
		snprintf(buf + len, size - len, "_%u", a->nth);
	return buf;
}
