// SPDX-License-Identifier: GPL-2.0
/*
 * The remote stream's framing (src/remote/stream.c): a header and a
 * record written and read back, byte for byte as docs/design.md draws
 * them; what a listener refuses; the names a stream may give and what a
 * header's texts become in a directory's name.
 */
#include "unit.h"
#include "remote/stream.h"

#include <string.h>

static void header_round_trip(void)
{
	struct stream_header h = { .pid = 0x01020304 }, back;
	uint8_t buf[STREAM_HEADER_FIXED + 2 * STREAM_TEXT_MAX];
	unsigned host_len, prog_len;
	const char *why;
	size_t n;

	strcpy(h.host, "board");
	strcpy(h.prog, "prog");
	n = stream_put_header(buf, &h);
	CHECK("header: its length", n == STREAM_HEADER_FIXED + 5 + 4);
	CHECK("header: magic, version 1, pid, lengths, big-endian",
	      unit_bytes_are(buf, "46 4e 54 52 53 54 52 4d 00 00 00 01 01 02 03 04 00 05 00 04"));
	CHECK("header: the texts after", !memcmp(buf + STREAM_HEADER_FIXED, "boardprog", 9));
	CHECK("header: read back",
	      stream_get_header(buf, &back, &host_len, &prog_len, &why) == 0 &&
	      back.pid == h.pid && host_len == 5 && prog_len == 4);
	buf[0] = 'X';
	CHECK("header: bad magic refused",
	      stream_get_header(buf, &back, &host_len, &prog_len, &why) && strstr(why, "magic"));
	buf[0] = 'F';
	buf[11] = 2;
	CHECK("header: another version refused",
	      stream_get_header(buf, &back, &host_len, &prog_len, &why) && strstr(why, "version"));
	buf[11] = 1;
	buf[16] = 1;	/* host: 261 bytes */
	CHECK("header: a text too long refused",
	      stream_get_header(buf, &back, &host_len, &prog_len, &why) && strstr(why, "long"));
}

static void header_cut(void)
{
	struct stream_header h = { 0 };
	uint8_t buf[STREAM_HEADER_FIXED + 2 * STREAM_TEXT_MAX];

	memset(h.host, 'h', STREAM_TEXT_MAX);
	strcpy(h.prog, "p");
	CHECK("header: a host name of the limit kept whole",
	      stream_put_header(buf, &h) == STREAM_HEADER_FIXED + STREAM_TEXT_MAX + 1);
}

static void records(void)
{
	uint8_t buf[STREAM_RECORD_FIXED];
	unsigned type, name_len;
	uint32_t len;
	const char *why;

	stream_put_record(buf, STREAM_APPEND, 9, 0x00040000);
	CHECK("record: type, name length, length, big-endian",
	      unit_bytes_are(buf, "02 09 00 04 00 00"));
	CHECK("record: read back", stream_get_record(buf, &type, &name_len, &len, &why) == 0 &&
	      type == STREAM_APPEND && name_len == 9 && len == 0x40000);
	stream_put_record(buf, 7, 4, 1);
	CHECK("record: an unknown type refused",
	      stream_get_record(buf, &type, &name_len, &len, &why) && strstr(why, "type"));
	stream_put_record(buf, STREAM_FILE, 4, STREAM_PAYLOAD_MAX + 1);
	CHECK("record: longer than 16 MB refused",
	      stream_get_record(buf, &type, &name_len, &len, &why) && strstr(why, "16 MB"));
	stream_put_record(buf, STREAM_FILE, 0, 1);
	CHECK("record: no name refused",
	      stream_get_record(buf, &type, &name_len, &len, &why) && strstr(why, "name"));
	stream_put_record(buf, STREAM_END, 1, 0);
	CHECK("record: an END with a name refused",
	      stream_get_record(buf, &type, &name_len, &len, &why) != 0);
	stream_put_record(buf, STREAM_END, 0, 0);
	CHECK("record: END", stream_get_record(buf, &type, &name_len, &len, &why) == 0 &&
	      type == STREAM_END);
	stream_put_record(buf, STREAM_ABORT, 0, 20);
	CHECK("record: ABORT and its line", stream_get_record(buf, &type, &name_len, &len, &why) == 0 &&
	      type == STREAM_ABORT && len == 20);
	stream_put_record(buf, STREAM_ABORT, 0, STREAM_ABORT_MAX + 1);
	CHECK("record: ABORT with a long line refused",
	      stream_get_record(buf, &type, &name_len, &len, &why) != 0);
}

static int name_ok(const char *s)
{
	return stream_name_ok(s, strlen(s));
}

static void names(void)
{
	char text[32];

	CHECK("name: a data directory's files",
	      name_ok("info") && name_ok("trace.dat") && name_ok("funcs-1234") &&
	      name_ok("funcs-1234.2") && name_ok("trace.dat.0") && name_ok("args"));
	CHECK("name: no path", !name_ok("a/b") && !name_ok("/etc/passwd") && !name_ok("../x"));
	CHECK("name: no dot first", !name_ok(".") && !name_ok("..") && !name_ok(".info.tmp-x"));
	CHECK("name: nothing else", !name_ok("") && !name_ok("a b") && !name_ok("a\nb") &&
	      !name_ok("a\\b"));
	CHECK("name: its length counted, not a NUL", !stream_name_ok("info\0/x", 7));
	strcpy(text, "../a b/c");
	stream_safe_text(text);
	CHECK("safe text: no dot first, no '/'", !strcmp(text, "_._a_b_c"));
	text[0] = '\0';
	stream_safe_text(text);
	CHECK("safe text: empty becomes unknown", !strcmp(text, "unknown"));
}

int main(void)
{
	header_round_trip();
	header_cut();
	records();
	names();
	return unit_done();
}
