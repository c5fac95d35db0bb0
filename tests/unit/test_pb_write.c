// SPDX-License-Identifier: GPL-2.0
/*
 * The protobuf writer of the Perfetto export (src/trace/pb_write.c):
 * varints at their boundaries, nested messages whose length needs more
 * than the byte left for it, short messages written in one go, strings
 * made valid UTF-8, and output that reaches the file only when flushed.
 */
#include "unit.h"
#include "../../src/trace/pb_write.h"

#include <stdlib.h>
#include <string.h>

/* What w holds, as bytes in hex: "08 ac 02". */
static const char *hex(const struct pb_writer *w)
{
	static char s[3 * 64];
	size_t n = 0;

	s[0] = '\0';
	for (size_t i = 0; i < w->len && i < 63; i++)
		n += sprintf(s + n, i ? " %02x" : "%02x", w->buf[i]);
	return s;
}

static void test_varints(void)
{
	struct pb_writer w;

	pb_writer_init(&w, NULL);
	pb_uint(&w, 1, 0);
	CHECK("varint: 0", !strcmp(hex(&w), "08 00"));
	w.len = 0;
	pb_uint(&w, 1, 127);
	CHECK("varint: 127, one byte", !strcmp(hex(&w), "08 7f"));
	w.len = 0;
	pb_uint(&w, 1, 300);
	CHECK("varint: 300 is ac 02", !strcmp(hex(&w), "08 ac 02"));
	w.len = 0;
	pb_uint(&w, 60, UINT64_MAX);
	CHECK("varint: a two-byte key, ten bytes of 2^64-1",
	      !strcmp(hex(&w), "e0 03 ff ff ff ff ff ff ff ff ff 01"));
	pb_writer_free(&w);
}

static void test_nesting(void)
{
	struct pb_writer w;
	char long_text[200];
	size_t outer, inner;

	pb_writer_init(&w, NULL);
	outer = pb_begin(&w, 1);
	inner = pb_begin(&w, 2);
	pb_uint(&w, 3, 1);
	pb_end(&w, inner);
	pb_end(&w, outer);
	CHECK("nested: lengths filled in", !strcmp(hex(&w), "0a 04 12 02 18 01"));

	/* 200 bytes of text: each length takes two bytes, so both bodies
	 * move along. */
	memset(long_text, 'x', sizeof(long_text));
	w.len = 0;
	outer = pb_begin(&w, 1);
	inner = pb_begin(&w, 2);
	pb_text(&w, 3, long_text, sizeof(long_text));
	pb_end(&w, inner);
	pb_end(&w, outer);
	CHECK("nested, long: three keys, three 2-byte lengths, the text",
	      w.len == 3 + 3 + 3 + 200);
	CHECK("nested, long: outer length 206",
	      w.buf[0] == 0x0a && w.buf[1] == 0xce && w.buf[2] == 0x01);
	CHECK("nested, long: inner length 203",
	      w.buf[3] == 0x12 && w.buf[4] == 0xcb && w.buf[5] == 0x01);
	CHECK("nested, long: the text's own length 200",
	      w.buf[6] == 0x1a && w.buf[7] == 0xc8 && w.buf[8] == 0x01);
	CHECK("nested, long: the text whole, last byte in place",
	      w.buf[9] == 'x' && w.buf[w.len - 1] == 'x');
	pb_writer_free(&w);
}

/* The short-message writers put down what pb_begin() and the rest do. */
static void test_short(void)
{
	struct pb_writer w;
	uint8_t *q, *outer, *inner;

	pb_writer_init(&w, NULL);
	q = pb_reserve(&w, 32);
	outer = pb_put_begin(q, 1);
	q = pb_put_uint(outer, 8, 300);
	inner = pb_put_begin(q, 11);
	q = pb_put_uint(inner, 9, 2);
	pb_put_end(inner, q);
	pb_put_end(outer, q);
	pb_commit(&w, q);
	CHECK("short: lengths and fields as pb_begin() writes them",
	      !strcmp(hex(&w), "0a 07 40 ac 02 5a 02 48 02"));
	pb_writer_free(&w);
}

static void test_text(void)
{
	struct pb_writer w;
	/* é, then a lone continuation byte, an overlong '/', a surrogate, a
	 * sequence cut short at the end. */
	static const char text[] = "\xc3\xa9" "\x80" "\xc0\xaf" "\xed\xa0\x80" "\xe2\x82";

	pb_writer_init(&w, NULL);
	pb_text(&w, 2, text, sizeof(text) - 1);
	CHECK("text: valid UTF-8 kept, each bad byte a '?'",
	      w.len == 2 + 10 && !memcmp(w.buf + 2, "\xc3\xa9????????", 10));
	CHECK("text: its length unchanged", w.buf[1] == 10);
	pb_writer_free(&w);
}

static void test_flush(void)
{
	struct pb_writer w;
	FILE *f = tmpfile();
	char got[8];
	long size;

	pb_writer_init(&w, f);
	pb_uint(&w, 1, 300);
	CHECK("flush: nothing written before", ftell(f) == 0);
	CHECK("flush_if_full: a small buffer stays", pb_flush_if_full(&w) == 0 && w.len == 3);
	CHECK("flush: 0", pb_flush(&w) == 0 && w.len == 0);
	size = ftell(f);
	rewind(f);
	CHECK("flush: the bytes in the file",
	      size == 3 && fread(got, 1, 3, f) == 3 && !memcmp(got, "\x08\xac\x02", 3));
	w.out_of_memory = 1;
	pb_uint(&w, 1, 1);
	CHECK("flush: out of memory is an error, nothing written",
	      pb_flush(&w) == -1 && ftell(f) == 3);
	pb_writer_free(&w);
	fclose(f);
}

int main(void)
{
	test_varints();
	test_nesting();
	test_short();
	test_text();
	test_flush();
	return unit_done();
}
