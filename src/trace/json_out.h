/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing JSON text fast enough for exports of hundreds of millions of
 * events.  One large buffer of our own sits in front of the FILE: stdio's
 * locking per call and printf's parsing of its format cost more than the
 * rest of an event, so numbers are formatted by hand here, and a writer
 * asks for room for a whole fixed-size piece at once.
 *
 * Strings come from the traced program (function names, trace_marker
 * text, thread names) and may hold any byte: json_out_string() makes
 * valid JSON of any of them, which a browser's parser takes.
 */
#ifndef FNTRACE_JSON_OUT_H
#define FNTRACE_JSON_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define JSON_OUT_SIZE	(1u << 20)	/* bytes buffered before a write */
#define JSON_OUT_PIECE	1024u		/* the most json_out_room() hands out */

struct json_out {
	FILE *f;
	char *buf;		/* JSON_OUT_SIZE + JSON_OUT_PIECE bytes */
	size_t len;		/* of buf, waiting to be written */
	uint64_t written;	/* to f, since json_out_init */
	int error;		/* errno of the first failed write, or 0 */
};

/* 0, or -1 if out of memory. */
int json_out_init(struct json_out *o, FILE *f);
void json_out_free(struct json_out *o);
/* Writes out what is buffered: 0, or -1 with o->error set (and every
 * later write skipped: the export is failing). */
int json_out_flush(struct json_out *o);

/* Bytes given to o so far, buffered or written. */
static inline uint64_t json_out_bytes(const struct json_out *o)
{
	return o->written + o->len;
}

/* Where n <= JSON_OUT_PIECE bytes may be written; json_out_done() says
 * where they ended.  The buffer has that much slack past JSON_OUT_SIZE,
 * so the test for a flush is one comparison. */
static inline char *json_out_room(struct json_out *o)
{
	if (o->len >= JSON_OUT_SIZE)
		json_out_flush(o);
	return o->buf + o->len;
}

static inline void json_out_done(struct json_out *o, char *end)
{
	o->len = end - o->buf;
}

/* Bytes of any length, as they are. */
void json_out_raw(struct json_out *o, const char *s, size_t n);
/* s[0..n) as a quoted JSON string: '"' and '\' escaped, control
 * characters as \n, \t ... or \u00XX, valid UTF-8 as it is, and each byte
 * of anything else as U+FFFD, the replacement character. */
void json_out_string(struct json_out *o, const char *s, size_t n);
/* The same, into a malloc()ed copy (*len bytes, NUL-terminated), for a
 * string written many times; NULL if out of memory. */
char *json_quote(const char *s, size_t n, size_t *len);

/* Formatting into json_out_room()'s space; each returns the end. */
static inline char *json_put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* v in decimal: at most 20 bytes. */
char *json_put_u64(char *p, uint64_t v);
/* Nanoseconds as microseconds with three decimals, the Trace Event
 * format's unit at full precision: 1234567 -> "1234.567" (24 bytes). */
char *json_put_usec(char *p, uint64_t ns);

#endif
