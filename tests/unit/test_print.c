// SPDX-License-Identifier: GPL-2.0
/*
 * The trace library prints nothing itself (src/common/print.h): a
 * reader whose stderr is not the user's terminal (a flight recorder, a
 * remote listener) installs a printer of its own and gets every message
 * there, and descriptor 2 stays untouched.  The default printer says the
 * same lines the commands always said, byte for byte.
 */
#include "unit.h"
#include "../../src/cli/cli.h"
#include "../../src/common/print.h"
#include "../../src/common/trace_format.h"
#include "../../src/trace/export.h"
#include "../../src/trace/info.h"
#include "../../src/trace/report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_LINES 4

static struct {
	enum print_level level;
	char text[512];
} lines[MAX_LINES];
static unsigned nr_lines;

static void capture(enum print_level level, const char *fmt, va_list ap)
{
	if (nr_lines < MAX_LINES) {
		lines[nr_lines].level = level;
		vsnprintf(lines[nr_lines].text, sizeof(lines[0].text), fmt, ap);
	}
	nr_lines++;
}

/* Exactly one line was printed, at level, and it reads text. */
static int captured(enum print_level level, const char *text)
{
	int ok = nr_lines == 1 && lines[0].level == level && !strcmp(lines[0].text, text);

	if (!ok && nr_lines)
		printf("  got %u line(s), the first at level %d: '%s'\n", nr_lines,
		       lines[0].level, lines[0].text);
	nr_lines = 0;
	return ok;
}

/* Descriptor 2 goes to a file while the library runs, so that the test
 * sees what reached it and the test's own log does not. */
static FILE *caught;
static int saved_fd2;

static void catch_stderr(void)
{
	fflush(stderr);
	caught = tmpfile();
	saved_fd2 = dup(2);
	if (!caught || saved_fd2 < 0 || dup2(fileno(caught), 2) < 0)
		abort();
}

/* What reached descriptor 2 since catch_stderr() (malloc'd). */
static char *release_stderr(void)
{
	static const size_t size = 4096;
	char *text = calloc(1, size);
	size_t n;

	fflush(stderr);
	dup2(saved_fd2, 2);
	close(saved_fd2);
	rewind(caught);
	n = fread(text, 1, size - 1, caught);
	text[n] = '\0';
	fclose(caught);
	return text;
}

static int stderr_is(const char *want)
{
	char *got = release_stderr();
	int ok = !strcmp(got, want);

	if (!ok)
		printf("  stderr: '%s'\n", got);
	free(got);
	return ok;
}

static char dir[] = "/tmp/fntrace-unit-print.XXXXXX";
static char path[sizeof(dir) + 32];

static const char *in_dir(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void put_file(const char *name, const void *data, size_t len)
{
	FILE *f = fopen(in_dir(name), "w");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		abort();
}

static void put_text(const char *name, const char *text)
{
	put_file(name, text, strlen(text));
}

/* A sound recording of process 100 that ran no traced function. */
static void put_sound_recording(void)
{
	struct ft_file_header h = {
		.magic = FT_FILE_MAGIC, .version = FT_VERSION, .word_order = FT_WORD_ORDER,
	};

	put_text("info", "fntrace-data: 1\ncommand: ./prog\ntracer: function_graph\n"
		 "pid: 100\nclock_sync: 1000 1000 2000 2000\noptions: retval\ndepth: 0\n"
		 "started: 1700000000\nnr_cpus: 2\nexit: status 0\nstate: sealed\n");
	put_text("funcs-100", "module 0 0x1000 0x1000 0x9000 /prog\nfunc 1 0x1100 0 main\n");
	put_file("trace.dat", &h, sizeof(h));
}

static void test_errors_reach_the_printer(const char *not_data)
{
	struct export_options eo = { .input = dir, .output = in_dir("out.json"),
				     .format = "chrome" };
	FILE *out = fopen("/dev/null", "w");
	int status;

	put_text("info", "command: ./prog\n");
	catch_stderr();
	status = report_run(dir, out, NULL);
	CHECK("report: a bad data directory fails", status == 1);
	CHECK("report: its error reaches the printer", captured(PRINT_ERROR, not_data));
	status = info_run(dir, out);
	CHECK("info: a bad data directory fails", status == 1);
	CHECK("info: its error reaches the printer", captured(PRINT_ERROR, not_data));
	status = export_run(&eo);
	CHECK("export: a bad data directory fails", status == 1);
	CHECK("export: its error reaches the printer", captured(PRINT_ERROR, not_data));
	CHECK("report, info, export: nothing reaches stderr", stderr_is(""));
	fclose(out);
}

static void test_warnings_reach_the_printer(void)
{
	static const uint32_t tids[] = { 7 };
	struct report_options ro = { .tids = tids, .nr_tids = 1 };
	FILE *out = fopen("/dev/null", "w");
	char want[sizeof(dir) + 32];
	int status;

	put_sound_recording();
	snprintf(want, sizeof(want), "no thread 7 in %s", dir);
	catch_stderr();
	status = report_run(dir, out, &ro);
	CHECK("report: a missing thread is no failure", status == 0);
	CHECK("report: its warning reaches the printer, as a warning",
	      captured(PRINT_WARN, want));
	CHECK("report: the warning does not reach stderr", stderr_is(""));
	fclose(out);
}

static void test_cli_error_uses_the_printer(void)
{
	catch_stderr();
	cli_error("no such %s: %d", "thing", 3);
	CHECK("cli_error: its line reaches the printer", captured(PRINT_ERROR, "no such thing: 3"));
	CHECK("cli_error: nothing reaches stderr", stderr_is(""));
}

static void test_no_printer(void)
{
	FILE *out = fopen("/dev/null", "w");

	set_print(NULL);
	put_text("info", "command: ./prog\n");
	catch_stderr();
	CHECK("no printer: the error is still returned", report_run(dir, out, NULL) == 1);
	CHECK("no printer: nothing is printed anywhere", nr_lines == 0 && stderr_is(""));
	fclose(out);
}

/* The lines the tests of the commands grep for. */
static void test_default_printer(void)
{
	CHECK("set_print hands back the printer it replaces", set_print(print_stderr) == NULL);
	catch_stderr();
	pr_error("%s: bad", "x");
	pr_warn("%s: less", "y");
	print_at(PRINT_INFO, "z");
	print_at(PRINT_DEBUG, "not shown");
	cli_error("w");
	CHECK("default printer: 'fntrace: ' lines on stderr, warnings said, no debug",
	      stderr_is("fntrace: x: bad\nfntrace: warning: y: less\nfntrace: z\nfntrace: w\n"));
}

int main(void)
{
	char not_data[sizeof(dir) + 80];

	if (!mkdtemp(dir))
		abort();
	snprintf(not_data, sizeof(not_data),
		 "%s/info: not an fntrace data directory (no fntrace-data line)", dir);
	CHECK("the default printer is the one replaced", set_print(capture) == print_stderr);
	test_errors_reach_the_printer(not_data);
	test_warnings_reach_the_printer();
	test_cli_error_uses_the_printer();
	test_no_printer();
	test_default_printer();
	unlink(in_dir("info"));
	unlink(in_dir("funcs-100"));
	unlink(in_dir("trace.dat"));
	rmdir(dir);
	return unit_done();
}
