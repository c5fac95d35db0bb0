// SPDX-License-Identifier: GPL-2.0
/*
 * Data directories of record --max-size: trace.dat as numbered
 * segments, the oldest gone.  The report reads the segments left as one
 * trace, and a thread whose first chunks are not in it begins at the
 * depth its first chunk says, so that what it returns from nests.
 * Prints "PASS: name" or "FAIL: name: why".
 */
#include "trace/info.h"
#include "report_fixture.h"

#define CUT_INFO							\
	INFO("function_graph", "pid: 12\nexit: status 0\nmax_size: 1048576\n"	\
	     "max_size_dropped: 5 chunks 1310720 bytes 327680 events\n"	\
	     "max_size_kept_from: 500000000\n")
#define FUNCS "func 1 0x401000 0 main\nfunc 2 0x401010 0 work\nfunc 3 0x401020 0 leaf\n"
#define CUT_LINE "# oldest 1.2 MB (5 chunks, 327680 events) dropped by --max-size=1.0 MB: " \
	"the last 0.500 s of the recording kept\n"
#define P " 0)    demo-12     | "

/* seq 2 begins inside main and work (depth 2, said as 3); seq 3 is gone,
 * seq 4 begins three deep: which of them are the calls open before the
 * gap is not known, so all three are stand-ins, and the gap is said as
 * the kernel says events lost it cannot count. */
static const char *make_cut_dir(void)
{
	const char *dir = new_dir("cut");
	struct chunk c[2];

	put_file(dir, "info", CUT_INFO);
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c[0], 12, 12, 2, 1000, 0, "demo");
	c[0].hdr.depth = 3;
	entry(&c[0], 1100, 3);
	exit_plain(&c[0], 1200);
	exit_plain(&c[0], 1300);
	entry(&c[0], 1400, 2);
	put_trace_file(dir, "trace.dat.3", &c[0], 1);
	chunk_start(&c[1], 12, 12, 4, 2000, 0, "demo");
	c[1].hdr.depth = 4;
	exit_plain(&c[1], 2100);
	exit_plain(&c[1], 2200);
	exit_plain(&c[1], 2300);
	put_trace_file(dir, "trace.dat.10", &c[1], 1);
	put_file(dir, "trace.dat.11", "");	/* made, its header not yet written */
	return dir;
}

static void test_cut(const char *dir)
{
	expect_output("segments: one trace, its start nested at the depth said", dir, NULL,
		"# tracer: function_graph\n" CUT_LINE
		"#\n"
		"# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
		"# |     |    |           |   |                     |   |   |   |\n"
		P "  0.100 us    |      leaf();\n"
		P "              |    } /* ? */\n"
		P "              |    work() {\n"
		" CPU:0 [LOST EVENTS]\n"
		P "              |      } /* ? */\n"
		P "              |    } /* ? */\n"
		P "              |  } /* ? */\n"
		"# gaps where events were lost, how many not known: 1\n"
		"#   demo-12: 1\n"
		"# program exited with status 0\n");
}

/*
 * A chunk written in pieces, out of their order: the one that begins seq
 * 6 went into a segment now dropped, before the end of seq 5 went into
 * the next.  Seq 0 begins inside main (its piece starts 8 bytes in); its
 * two pieces follow on; seq 6's second piece does not follow seq 5, and
 * the calls it returns from are stand-ins.
 */
static void test_pieces(void)
{
	const char *dir = new_dir("pieces");
	struct chunk c[3];

	put_file(dir, "info", CUT_INFO);
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c[0], 12, 12, 6, 2000, 0, "demo");
	c[0].hdr.depth = 3;
	c[0].hdr.consumed = ft_piece_mark(8);
	entry(&c[0], 2100, 3);
	exit_plain(&c[0], 2200);
	exit_plain(&c[0], 2300);
	put_trace_file(dir, "trace.dat.3", &c[0], 1);
	chunk_start(&c[1], 12, 12, 0, 1000, 0, "demo");
	c[1].hdr.depth = 3;
	c[1].hdr.consumed = ft_piece_mark(8 + 12);
	exit_plain(&c[1], 1400);
	chunk_start(&c[2], 12, 12, 0, 1000, 0, "demo");
	c[2].hdr.depth = 2;
	c[2].hdr.consumed = ft_piece_mark(8);
	entry(&c[2], 1100, 2);
	entry(&c[2], 1200, 3);
	exit_plain(&c[2], 1300);
	put_trace_file(dir, "trace.dat.4", &c[1], 2);
	expect_output("segments: pieces in their order, and one missing between said", dir, NULL,
		"# tracer: function_graph\n" CUT_LINE
		"#\n"
		"# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
		"# |     |    |           |   |                     |   |   |   |\n"
		P "              |    work() {\n"
		P "  0.100 us    |      leaf();\n"
		P "  0.300 us    |    } /* work */\n"
		" CPU:0 [LOST EVENTS]\n"
		P "  0.100 us    |      leaf();\n"
		P "              |    } /* ? */\n"
		"# gaps where events were lost, how many not known: 1\n"
		"#   demo-12: 1\n"
		"# program exited with status 0\n");
}

/* An older runtime's chunks say no depth: the kernel's bare braces. */
static void test_depth_unsaid(void)
{
	const char *dir = new_dir("unsaid");
	struct chunk c;

	put_file(dir, "info", CUT_INFO);
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c, 12, 12, 7, 1000, 0, "demo");
	entry(&c, 1100, 3);
	exit_plain(&c, 1200);
	exit_plain(&c, 1300);
	put_trace_file(dir, "trace.dat.0", &c, 1);
	expect_output("segments: a depth not said, bare braces", dir, NULL,
		"# tracer: function_graph\n" CUT_LINE
		"#\n"
		"# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
		"# |     |    |           |   |                     |   |   |   |\n"
		P "  0.100 us    |  leaf();\n"
		P "              |  }\n"
		"# program exited with status 0\n");
}

/* What info says of the segments and of the cut. */
static void test_info(const char *dir)
{
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);
	int status = info_run(dir, out);

	fclose(out);
	if (status == 0 &&
	    strstr(text, "\ntrace.dat        204 bytes in 2 chunks, in 3 segments "
		   "(trace.dat.3 to trace.dat.11)\n") &&
	    strstr(text, "\nmax size         oldest 1.2 MB (5 chunks, 327680 events) dropped "
		   "by --max-size=1.0 MB\n                 kept: the last 0.500 s of the "
		   "recording\n"))
		pass("info: the segments, what was dropped, the time kept");
	else
		fail("info: the segments, what was dropped, the time kept", text);
	free(text);
}

/* A segment cut inside its header: the recorder was killed making it. */
static void test_short_segment(void)
{
	const char *dir = new_dir("short");
	struct result r;
	struct chunk c;

	put_file(dir, "info", CUT_INFO);
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c, 12, 12, 0, 1000, 0, "demo");
	c.hdr.depth = 1;
	entry(&c, 1100, 3);
	exit_plain(&c, 1200);
	put_trace_file(dir, "trace.dat.0", &c, 1);
	put_file(dir, "trace.dat.1", "FNTRD");
	r = run(dir, NULL);
	if (r.status == 0 && strstr(r.out, P "  0.100 us    |  leaf();\n") &&
	    strstr(r.err, "ends inside a chunk"))
		pass("segments: one cut in its header holds nothing, said");
	else
		fail("segments: one cut in its header holds nothing, said", r.err);
	free_result(&r);
}

static void test_bad_segment(void)
{
	const char *dir = new_dir("bad");
	struct chunk c;

	put_file(dir, "info", CUT_INFO);
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c, 12, 12, 0, 1000, 0, "demo");
	put_trace_file(dir, "trace.dat.0", &c, 1);
	put_file(dir, "trace.dat.1", "not a trace file at all");
	expect_error("segments: a bad one named", dir, "/trace.dat.1: not an fntrace trace file");
	put_file(dir, "trace.dat.1", "");
	put_file(dir, "trace.dat.x1", "");	/* not a segment's name */
	put_file(dir, "trace.dat.1x", "");
	expect_output("segments: only trace.dat.N names one", dir, NULL,
		"# tracer: function_graph\n" CUT_LINE
		"#\n"
		"# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
		"# |     |    |           |   |                     |   |   |   |\n"
		"# program exited with status 0\n");
}

int main(void)
{
	const char *dir;

	if (fixture_begin("segments"))
		return 1;
	dir = make_cut_dir();
	test_cut(dir);
	test_info(dir);
	test_pieces();
	test_depth_unsaid();
	test_short_segment();
	test_bad_segment();
	return fixture_end();
}
