// SPDX-License-Identifier: GPL-2.0
/*
 * What report shows under -F, -D, --min-duration and --time-range, on
 * synthetic traces with exact times: lost events inside held calls, and
 * the exit order --min-duration gives the lines of different threads.
 */
#include "cli/cli.h"
#include "common/filter.h"
#include "trace/trace_reader.h"
#include "report_fixture.h"

/*
 *   1000 main {                      5500 LOST 3, resuming 2 deep
 *   1100   a {                       5700   b {   (inside the unseen frame)
 *   1200     b { } 1300              5800   }
 *   1400     c { } 5400              6000 } the unseen frame
 *   5500   }                         9000 }
 */
static const char *make_lost_dir(void)
{
	const char *dir = new_dir("select_lost");
	struct chunk c;

	put_file(dir, "info", INFO("function_graph", "pid: 40\nexit: status 0\n"));
	put_file(dir, "funcs-40",
		 "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 main\nfunc 2 0x401010 0 a\nfunc 3 0x401020 0 b\n"
		 "func 4 0x401030 0 c\n");
	chunk_start(&c, 40, 40, 0, 1000, 0, "demo");
	entry(&c, 1000, 1);
	entry(&c, 1100, 2);
	entry(&c, 1200, 3);
	exit_plain(&c, 1300);
	entry(&c, 1400, 4);
	exit_plain(&c, 5400);
	exit_plain(&c, 5500);
	lost(&c, 3, 2);
	entry(&c, 5700, 3);
	exit_plain(&c, 5800);
	exit_plain(&c, 6000);
	exit_plain(&c, 9000);
	put_trace(dir, &c, 1);
	return dir;
}

/* The duration and function columns only. */
#define BARE	{ .show_off = REPORT_SHOW_CPU | REPORT_SHOW_PROC }
#define HEADER	"# tracer: function_graph\n#\n"					\
		"#  DURATION                  FUNCTION CALLS\n"			\
		"#   |   |                     |   |   |   |\n"
#define OPEN	"              |  "
#define LOST	" CPU:0 [LOST 3 EVENTS]\n"
#define FOOTER	"# lost events: 3\n#   demo-40: 3\n# program exited with status 0\n"

static void test_min_duration_and_loss(const char *dir)
{
	struct report_options o = BARE;

	/* b is too short, twice; the lost events' unseen frame is shown,
	 * the calls around them first. */
	o.min_duration = 1000;
	expect_output("min-duration: held calls, then the loss", dir, &o, HEADER
		OPEN "main() {\n"
		OPEN "  a() {\n"
		"  4.000 us    |      c();\n"
		"  4.400 us    |    } /* a */\n"
		LOST
		OPEN "  } /* ? */\n"
		"  8.000 us    |  } /* main */\n" FOOTER);
}

static void test_filter_and_loss(const char *dir)
{
	struct filter f = { 0 };
	char err[64];
	struct report_options o = BARE;

	/* -F picks by name: the unseen frame could be anything, not shown. */
	filter_add(&f, "b", err, sizeof(err));
	o.filter = &f;
	expect_output("-F: the loss keeps its place, depths from the shown", dir, &o, HEADER
		"  0.100 us    |  b();\n"
		LOST
		"  0.100 us    |  b();\n" FOOTER);
	filter_free(&f);
}

static void test_range_and_depth(const char *dir)
{
	struct report_options o = BARE;

	/* 1350..1450 overlaps main, a, c (too deep); the loss after the
	 * range closes nothing shown: it is not said, nor its unseen frame. */
	o.from = (struct report_time) { .ns = 1350, .absolute = 1, .set = 1 };
	o.to = (struct report_time) { .ns = 1450, .absolute = 1, .set = 1 };
	o.max_depth = 2;
	expect_output("time-range and -D: calls overlapping the range", dir, &o, HEADER
		OPEN "main() {\n"
		"  4.400 us    |    a();\n"
		"  8.000 us    |  } /* main */\n"
		"# program exited with status 0\n");
	/* Relative to the first event: 0..0 is main's entry alone. */
	o = (struct report_options) BARE;
	o.to = (struct report_time) { .ns = 0, .set = 1 };
	expect_output("time-range: relative, the first instant", dir, &o, HEADER
		"  8.000 us    |  main();\n"
		"# program exited with status 0\n");
}

/* Thread 51's short call returns before 50's long one: with
 * --min-duration each is printed when it returns. */
static void test_exit_order(void)
{
	const char *dir = new_dir("select_order");
	struct report_options o = BARE;
	struct chunk c[2];

	put_file(dir, "info", INFO("function_graph", "pid: 50\nexit: status 0\n"));
	put_file(dir, "funcs-50",
		 "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 long_one\nfunc 2 0x401010 0 short_one\n");
	chunk_start(&c[0], 50, 50, 0, 1000, 0, "demo");
	entry(&c[0], 1000, 1);
	exit_plain(&c[0], 5000);
	chunk_start(&c[1], 50, 51, 0, 2000, 1, "demo");
	entry(&c[1], 2000, 2);
	exit_plain(&c[1], 3000);
	put_trace(dir, c, 2);
	expect_output("no filter: lines in entry order", dir, &o, HEADER
		"  4.000 us    |  long_one();\n"
		"  1.000 us    |  short_one();\n"
		"# program exited with status 0\n");
	o.min_duration = 500;
	expect_output("min-duration: lines in exit order", dir, &o, HEADER
		"  1.000 us    |  short_one();\n"
		"  4.000 us    |  long_one();\n"
		"# program exited with status 0\n");
}

int main(void)
{
	const char *lost_dir;

	if (fixture_begin("select"))
		return 1;
	lost_dir = make_lost_dir();
	test_min_duration_and_loss(lost_dir);
	test_filter_and_loss(lost_dir);
	test_range_and_depth(lost_dir);
	test_exit_order();
	return fixture_end();
}
