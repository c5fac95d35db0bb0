// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace export --format perfetto on synthetic data directories: the
 * paths a small real program never takes (lost events, frames cut by
 * them or entered unseen, unwinding, frames still open at the end, an id
 * with no name, a marker that is not UTF-8, the values of calls), read
 * back by a decoder of the wire format that knows which fields are
 * messages.
 */
#include "trace/export.h"
#include "report_fixture.h"

#include <inttypes.h>

/* The fields of the packets that are messages, by path below the packet
 * (numbers from Perfetto's protos, as in perfetto_proto.h); every other
 * length-delimited field is a string. */
static const char *const message_paths[] = {
	"6", "6.1", "11", "11.4", "12", "12.2", "59", "59.11", "60", "60.3", "60.4",
};

static int is_message(const char *path)
{
	for (size_t i = 0; i < sizeof(message_paths) / sizeof(message_paths[0]); i++)
		if (!strcmp(path, message_paths[i]))
			return 1;
	return 0;
}

static uint64_t read_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;

	for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	return v;
}

/* Appends "path=value " for every field of the message in [p, end),
 * strings in quotes; -1 if it is not well formed. */
static int flatten(const uint8_t *p, const uint8_t *end, const char *prefix, FILE *out)
{
	while (p < end) {
		uint64_t key = read_varint(&p, end), v;
		char path[64];

		snprintf(path, sizeof(path), "%s%s%u", prefix, *prefix ? "." : "",
			 (unsigned)(key >> 3));
		if ((key & 7) == 0) {
			fprintf(out, "%s=%" PRIu64 " ", path, read_varint(&p, end));
			continue;
		}
		if ((key & 7) != 2)
			return -1;
		v = read_varint(&p, end);
		if (v > (uint64_t)(end - p))
			return -1;
		if (is_message(path)) {
			if (flatten(p, p + v, path, out))
				return -1;
		} else {
			fprintf(out, "%s=\"%.*s\" ", path, (int)v, (const char *)p);
		}
		p += v;
	}
	return 0;
}

/* The packets of file, one a line, each after "@TIME " as the sum of the
 * deltas on the sequence's clock from its snapshot says; NULL if any is
 * not well formed. */
static char *decode(const char *file)
{
	FILE *f = fopen(file, "r"), *out;
	char *text = NULL, *all = f ? read_all(f) : NULL;
	size_t all_len = 0, len;
	const uint8_t *p, *end;
	uint64_t time = 0;
	int bad = 0;

	if (f) {
		fseek(f, 0, SEEK_END);
		all_len = ftell(f);
		fclose(f);
	}
	out = open_memstream(&text, &len);
	for (p = (const uint8_t *)all, end = p + all_len; all && p < end && !bad;) {
		uint64_t key = read_varint(&p, end), size = read_varint(&p, end);
		char *line;
		size_t line_len;
		FILE *packet = open_memstream(&line, &line_len);

		bad = key != (1 << 3 | 2) || size > (uint64_t)(end - p) ||
		      flatten(p, p + size, "", packet);
		fclose(packet);
		if (strstr(line, "6.1.2="))
			time = strtoull(strstr(line, "6.1.2=") + 6, NULL, 10);
		else if (!strncmp(line, "8=", 2))
			time += strtoull(line + 2, NULL, 10);
		fprintf(out, "@%" PRIu64 " %s\n", time, line);
		free(line);
		p += size;
	}
	fclose(out);
	free(all);
	if (bad) {
		free(text);
		return NULL;
	}
	return text;
}

static int has(const char *text, const char *what)
{
	return strstr(text, what) != NULL;
}

static int count(const char *text, const char *what)
{
	int n = 0;

	for (const char *s = text; (s = strstr(s, what)); s++)
		n++;
	return n;
}

static void expect(const char *name, int ok, const char *text)
{
	if (ok) {
		pass(name);
		return;
	}
	fail(name, "not in the decoded packets:");
	printf("%s", text);
}

static char *export_to(const char *dir, const char *file)
{
	struct export_options o = { .input = dir, .output = file, .format = "perfetto" };
	int status = export_run(&o);

	if (status) {
		fail("export_run", "non-zero status");
		return NULL;
	}
	return decode(file);
}

/* main { a { b   LOST 4 (back at depth 1)   <id 99> unwound   marker
 *        a = 42 }  ... still running */
static void test_cut_frames(void)
{
	const char *dir = new_dir("cut");
	struct chunk c;
	char *text;

	put_file(dir, "info", INFO("function_graph", "pid: 40\n"));
	put_file(dir, "funcs-40",
		 "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 main\nfunc 2 0x401010 0 a\nfunc 3 0x401020 0 b\n");
	chunk_start(&c, 40, 40, 0, 1000, 0, "demo");
	entry(&c, 1000, 1);
	entry(&c, 1100, 2);
	entry(&c, 1200, 3);
	lost(&c, 4, 1);
	entry(&c, 1300, 99);
	unwind(&c, 1400);
	marker(&c, "caf\xc3\xa9 \xff\n");
	entry(&c, 1500, 2);
	exit_ret(&c, 1600, 42);
	put_trace(dir, &c, 1);

	text = export_to(dir, path_of(base, "cut.pftrace"));
	if (!text) {
		fail("cut: decoded", "not well formed");
		return;
	}
	expect("cut: process and thread tracks",
	       has(text, "60.1=40 60.3.1=40 60.3.6=\"demo\"") &&
	       has(text, "60.1=4294967336 60.4.1=40 60.4.2=40 60.4.5=\"demo\""), text);
	expect("cut: the sequence starts at the first event, its track the default",
	       has(text, "@1000 10=2 13=1 59.58=64 59.11.11=4294967336 "
			    "6.1.1=6 6.1.2=1000 6.1.1=64 6.1.2=1000 6.1.3=1"), text);
	expect("cut: the lost events at 1200, counted",
	       has(text, "@1200 8=0 10=2 11.9=3 11.23=\"[LOST 4 EVENTS]\" "
			    "11.4.10=\"events\" 11.4.3=4"), text);
	expect("cut: b and a end when the loss began",
	       count(text, "@1200 8=0 10=2 11.9=2 11.4.10=\"end\" "
			   "11.4.6=\"returned while events were lost\"") == 2, text);
	expect("cut: an id with no name spelt out",
	       has(text, "@1300 8=100 10=2 11.9=1 11.23=\"<id 99>\""), text);
	expect("cut: unwound", has(text, "@1400 8=100 10=2 11.9=2 11.4.10=\"end\" "
					    "11.4.6=\"unwound\""), text);
	expect("cut: the marker, valid UTF-8, without its newline",
	       has(text, "11.9=3 11.23=\"caf\xc3\xa9 ?\""), text);
	expect("cut: a's name interned once", count(text, "12.2.2=\"a\"") == 1 &&
	       count(text, "11.9=1 11.10=3") == 2, text);
	expect("cut: the return value", has(text, "@1600 8=100 10=2 11.9=2 "
						     "11.4.10=\"retval\" 11.4.3=42"), text);
	expect("cut: main still running at the end",
	       has(text, "@1600 8=0 10=2 11.9=2 11.4.10=\"end\" "
			    "11.4.6=\"still running when the trace ends\""), text);
	free(text);
}

/* A thread whose trace begins with a loss two calls deep: stand-ins,
 * one name for both; then an id the funcs file skipped. */
static void test_unseen_frames(void)
{
	const char *dir = new_dir("unseen");
	struct chunk c;
	char *text;

	put_file(dir, "info", INFO("function_graph", "pid: 50\n"));
	put_file(dir, "funcs-50", "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
				  "func 1 0x401000 0 main\nfunc 3 0x401010 0 x\n");
	chunk_start(&c, 50, 51, 0, 2000, 0, "worker");
	lost(&c, 9, 2);
	exit_plain(&c, 2100);
	exit_plain(&c, 2200);
	entry(&c, 2300, 2);	/* in the table, but never named */
	exit_plain(&c, 2400);
	put_trace(dir, &c, 1);

	text = export_to(dir, path_of(base, "unseen.pftrace"));
	if (!text) {
		fail("unseen: decoded", "not well formed");
		return;
	}
	expect("unseen: a process named by its only thread",
	       has(text, "60.3.1=50 60.3.6=\"worker\""), text);
	expect("unseen: two stand-in frames, one interned name",
	       count(text, "12.2.1=1 12.2.2=\"(unknown: events lost)\"") == 1 &&
	       count(text, "11.9=1 11.10=1") == 2, text);
	expect("unseen: they end at their exits",
	       has(text, "@2100 8=100 10=2 11.9=2 \n@2200 8=100 10=2 11.9=2 \n"), text);
	expect("unseen: an id without a name spelt out, interned",
	       has(text, "@2300 8=100 10=2 12.2.1=3 12.2.2=\"<id 2>\" 11.9=1 11.10=3"), text);
	free(text);
}

/* A shell that exec'd its program: one process track, named by the
 * program; a thread track for each, one tid. */
static void test_exec(void)
{
	const char *dir = new_dir("exec");
	struct chunk c[2];
	char *text;

	put_file(dir, "info", INFO("function_graph", "pid: 60\n"));
	put_file(dir, "funcs-60", "module 0 0x0 0x400000 0x500000 /nonexistent/sh\n"
				  "func 1 0x401000 0 main\n");
	put_file(dir, "funcs-60.1", "module 0 0x0 0x400000 0x500000 /nonexistent/prog\n"
				    "func 1 0x401000 0 run\n");
	chunk_start(&c[0], 60, 60, 0, 1000, 0, "sh");
	entry(&c[0], 1000, 1);
	chunk_start(&c[1], 60, 60, 0, 2000, 0, "prog");
	c[1].hdr.image = 1;
	entry(&c[1], 2000, 1);
	exit_plain(&c[1], 2500);
	put_trace(dir, c, 2);

	text = export_to(dir, path_of(base, "exec.pftrace"));
	if (!text) {
		fail("exec: decoded", "not well formed");
		return;
	}
	expect("exec: one process, named by the program it became",
	       count(text, "60.3.1=60 ") == 1 && has(text, "60.3.6=\"prog\""), text);
	expect("exec: a track for each program",
	       has(text, "60.1=4294967356 60.4.1=60 60.4.2=60 60.4.5=\"sh\"") &&
	       has(text, "60.1=8589934652 60.4.1=60 60.4.2=60 60.4.5=\"prog\""), text);
	expect("exec: each program's names",
	       has(text, "10=2 12.2.1=2 12.2.2=\"main\"") &&
	       has(text, "10=3 12.2.1=2 12.2.2=\"run\""), text);
	free(text);
}

/* main { f(5, "ab") = 7 typed; g() = 0x2a untyped } */
static void test_values(void)
{
	const char *dir = new_dir("values");
	struct chunk c;
	unsigned at;
	char *text;

	put_file(dir, "info", INFO("function_graph", "pid: 70\n"));
	put_file(dir, "funcs-70", "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
				  "func 1 0x401000 0 main\nfunc 2 0x401010 0 f\n"
				  "func 3 0x401020 0 g\n");
	chunk_start(&c, 70, 70, 0, 1000, 0, "demo");
	entry(&c, 1000, 1);
	entry(&c, 1100, 2);
	at = args_begin(&c);
	arg_int(&c, FT_ARG_SIGNED, 1, 5);
	arg_str(&c, 2, "ab");
	args_end(&c, at, 0);
	at = args_begin(&c);
	arg_int(&c, FT_ARG_UNSIGNED, 0, 7);
	args_end(&c, at, FT_ARGS_OF_RETURN);
	exit_ret(&c, 1200, 0x99);
	entry(&c, 1300, 3);
	exit_ret(&c, 1400, 0x2a);
	exit_plain(&c, 1500);
	put_trace(dir, &c, 1);

	text = export_to(dir, path_of(base, "values.pftrace"));
	if (!text) {
		fail("values: decoded", "not well formed");
		return;
	}
	expect("values: the arguments annotate the begin",
	       has(text, "@1100 8=100 10=2 12.2.1=3 12.2.2=\"f\" 11.9=1 11.10=3 "
			    "11.4.10=\"arg1\" 11.4.6=\"5\" 11.4.10=\"arg2\" "
			    "11.4.6=\"\"ab\"\""), text);
	expect("values: a typed return value in the untyped one's place",
	       has(text, "@1200 8=100 10=2 11.9=2 11.4.10=\"retval\" 11.4.6=\"7\" \n"),
	       text);
	expect("values: an untyped return value as before",
	       has(text, "@1400 8=100 10=2 11.9=2 11.4.10=\"retval\" 11.4.3=42"), text);
	expect("values: a call without them, as before",
	       has(text, "@1000 8=0 10=2 12.2.1=2 12.2.2=\"main\" 11.9=1 11.10=2 \n"), text);
	free(text);
}

int main(void)
{
	if (fixture_begin("perfetto"))
		return 1;
	test_cut_frames();
	test_unseen_frames();
	test_exec();
	test_values();
	return fixture_end();
}
