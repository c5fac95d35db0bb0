// SPDX-License-Identifier: GPL-2.0
/*
 * The flame graph exports (folded, svg) on synthetic data directories:
 * exact self times of hand-made calls, recursion, frames entered while
 * events were lost, function ids funcs-<pid> never named, and names that
 * would break either format (';', quotes, '<', a tab, a byte that is not
 * UTF-8).  Prints "PASS: name" or "FAIL: name: why".
 */
#include "trace/export.h"
#include "report_fixture.h"

/* Thread 70: main calls rec (which recurses once) and four functions with
 * awkward names; thread 71 resumes two frames deep after lost events. */
static const char *make_names_dir(void)
{
	const char *dir = new_dir("names");
	struct chunk c[2];

	put_file(dir, "info", INFO("function_graph", "pid: 70\nexit: status 0\n"));
	put_file(dir, "funcs-70",
		 "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 main\nfunc 2 0x401010 0 odd;name\n"
		 "func 3 0x401020 0 amp&<q\"uote>\nfunc 4 0x401030 0 rec\n"
		 "func 5 0x401040 0 \xff bad\nfunc 6 0x401050 0 tab\there\n");
	chunk_start(&c[0], 70, 70, 0, 0, 0, "demo");
	entry(&c[0], 0, 1);
	entry(&c[0], 100, 4);
	entry(&c[0], 200, 4);
	exit_plain(&c[0], 300);
	exit_plain(&c[0], 400);
	entry(&c[0], 500, 2);
	exit_plain(&c[0], 600);
	entry(&c[0], 700, 9);		/* never named */
	exit_plain(&c[0], 750);
	entry(&c[0], 800, 3);
	exit_plain(&c[0], 900);
	entry(&c[0], 920, 5);
	exit_plain(&c[0], 960);
	entry(&c[0], 970, 6);
	exit_plain(&c[0], 980);
	exit_plain(&c[0], 1000);
	chunk_start(&c[1], 70, 71, 0, 1000, 1, "worker");
	lost(&c[1], 5, 2);		/* at 1000, two frames deep */
	entry(&c[1], 2000, 4);
	exit_plain(&c[1], 2100);
	exit_plain(&c[1], 2500);
	exit_plain(&c[1], 2600);
	put_trace(dir, c, 2);
	return dir;
}

/* Runs the export of dir to a file and returns its text, or NULL. */
static char *export_text(const char *dir, const char *format, int *status)
{
	static char out[2 * PATH_MAX];
	struct export_options o = { .input = dir, .format = format, .output = out };
	char *text = NULL;
	FILE *f;

	snprintf(out, sizeof(out), "%s.%s", dir, format);
	*status = export_run(&o);
	f = fopen(out, "r");
	if (f) {
		text = read_all(f);
		fclose(f);
	}
	return text;
}

static void test_folded(const char *dir)
{
	int status;
	char *got = export_text(dir, "folded", &status);
	const char *want =
		"[lost] 100\n"
		"[lost];[lost] 1400\n"
		"[lost];[lost];rec 100\n"
		"main 400\n"
		"main;[id:9] 50\n"
		"main;amp&<q\"uote> 100\n"
		"main;odd:name 100\n"
		"main;rec 200\n"
		"main;rec;rec 100\n"
		"main;tab?here 10\n"
		"main;\xff bad 40\n";

	if (status || !got)
		fail("folded: export", "failed");
	else if (strcmp(got, want)) {
		fail("folded: exact stacks and self times", "unexpected output");
		explain_difference(got, want);
	} else {
		pass("folded: exact stacks and self times");
	}
	free(got);
}

static void expect_in(const char *name, const char *text, const char *piece)
{
	if (text && strstr(text, piece))
		pass(name);
	else
		fail(name, piece);
}

static void test_svg(const char *dir)
{
	char cmd[3 * PATH_MAX];
	int status;
	char *got = export_text(dir, "svg", &status);

	if (status || !got) {
		fail("svg: export", "failed");
		free(got);
		return;
	}
	expect_in("svg: quotes, '&' and '<' escaped", got,
		  "data-name=\"amp&amp;&lt;q&quot;uote&gt;\" data-calls=\"1\"");
	expect_in("svg: ';' kept", got, "data-name=\"odd;name\"");
	expect_in("svg: a byte that is not UTF-8 replaced", got, "data-name=\"? bad\"");
	expect_in("svg: a tab replaced", got, "data-name=\"tab?here\"");
	expect_in("svg: an unnamed id", got, "data-name=\"[id:9]\"");
	expect_in("svg: recursion", got, "data-name=\"rec\" data-calls=\"1\" data-total=\"100\"");
	expect_in("svg: frames entered while events were lost", got,
		  "data-name=\"[lost]\" data-calls=\"1\" data-total=\"1600\" data-self=\"100\"");
	expect_in("svg: the root's total is every thread's", got,
		  "data-name=\"all\" data-calls=\"0\" data-total=\"2600\"");
	snprintf(cmd, sizeof(cmd), "xmllint --noout '%s.svg'", dir);
	if (system(cmd) == 0)
		pass("svg: well-formed XML (xmllint)");
	else
		fail("svg: well-formed XML (xmllint)", cmd);
	free(got);
}

/* A 10 s call with a 1 ns child: the child is a ten-millionth of a pixel
 * wide and is left out, and the subtitle says so. */
static void test_svg_narrow(void)
{
	const char *dir = new_dir("narrow");
	struct chunk c;
	int status;
	char *got;

	put_file(dir, "info", INFO("function_graph", "pid: 80\n"));
	put_file(dir, "funcs-80", "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 main\nfunc 2 0x401010 0 blip\n");
	chunk_start(&c, 80, 80, 0, 0, 0, "demo");
	entry(&c, 0, 1);
	entry(&c, 1000, 2);
	exit_plain(&c, 1001);
	exit_plain(&c, 10000000000ull);
	put_trace(dir, &c, 1);
	got = export_text(dir, "svg", &status);
	expect_in("svg: a wide frame is drawn", got, "data-name=\"main\"");
	if (got && !strstr(got, "data-name=\"blip\""))
		pass("svg: a frame narrower than 0.1 px is left out");
	else
		fail("svg: a frame narrower than 0.1 px is left out", "blip is there");
	expect_in("svg: the subtitle counts it", got, "(1 too narrow to draw)");
	free(got);
	got = export_text(dir, "folded", &status);
	expect_in("folded: keeps it", got, "main;blip 1\n");
	free(got);
}

/* The function tracer records no durations: refused, nothing written. */
static void test_function_trace(void)
{
	const char *dir = new_dir("function");
	struct chunk c;
	int status;
	char *got;

	put_file(dir, "info", INFO("function", "pid: 90\n"));
	put_file(dir, "funcs-90", "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 main\n");
	chunk_start(&c, 90, 90, 0, 0, 0, "demo");
	func(&c, 10, 1, 0x401000);
	put_trace(dir, &c, 1);
	fflush(stdout);
	got = export_text(dir, "folded", &status);
	if (status == 1 && !got)
		pass("folded: a function trace refused, no file");
	else
		fail("folded: a function trace refused, no file", got ? "a file" : "status");
	free(got);
}

int main(void)
{
	const char *dir;

	if (fixture_begin("flame"))
		return 1;
	dir = make_names_dir();
	test_folded(dir);
	test_svg(dir);
	test_svg_narrow();
	test_function_trace();
	return fixture_end();
}
