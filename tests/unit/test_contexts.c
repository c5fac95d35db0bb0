// SPDX-License-Identifier: GPL-2.0
/*
 * A thread's two contexts (trace_format.h): the events of a signal handler
 * that ran while the thread was inside the tracer come in chunks of their
 * own, numbered on their own; the report merges them by time into the
 * thread's stream, nested in the frame the signal interrupted, and a LOST
 * in the handler's context resumes at its depth plus the depth it
 * interrupted.
 */
#include "report_fixture.h"

#include "trace/trace_reader.h"

static const char *make_dir(void)
{
	const char *dir = new_dir("contexts");
	struct chunk c[3];

	put_file(dir, "info", INFO("function_graph", "pid: 40\nexit: status 0\n"));
	put_file(dir, "funcs-40",
		 "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 main\nfunc 2 0x401010 0 work\n"
		 "func 3 0x401020 0 on_signal\nfunc 4 0x401030 0 handler\n");
	/* The handler's second chunk first, then its first: seq decides,
	 * within its context. */
	chunk_start(&c[0], 40, 40, 1, 1350, 0, "demo");
	c[0].hdr.context = 1;
	lost(&c[0], 3, 1);		/* inside on_signal: its depth, 1 */
	exit_plain(&c[0], 1400);
	chunk_start(&c[1], 40, 40, 0, 0, 0, "demo");
	c[1].hdr.context = 1;
	entry(&c[1], 1200, 3);
	entry(&c[1], 1250, 4);
	exit_plain(&c[1], 1300);
	chunk_start(&c[2], 40, 40, 0, 1000, 0, "demo");
	entry(&c[2], 1000, 1);
	entry(&c[2], 1100, 2);
	exit_plain(&c[2], 1500);
	exit_plain(&c[2], 2000);
	put_trace(dir, c, 3);
	return dir;
}

#define P " 0)    demo-40     | "

static void test_merged_graph(const char *dir)
{
	expect_output("contexts: the handler's calls nest where the signal came", dir, NULL,
		GRAPH_HEADER
		P "              |  main() {\n"
		P "              |    work() {\n"
		P "              |      on_signal() {\n"
		P "  0.050 us    |        handler();\n"
		" CPU:0 [LOST 3 EVENTS]\n"
		P "  0.200 us    |      } /* on_signal */\n"
		P "  0.400 us    |    } /* work */\n"
		P "  1.000 us    |  } /* main */\n"
		"# lost events: 3\n"
		"#   demo-40: 3\n"
		"# program exited with status 0\n");
}

/* Every event once, in time order, and one thread, not two. */
static void test_cursor_order(const char *dir)
{
	static const uint64_t want[] = { 1000, 1100, 1200, 1250, 1300, 1350, 1400, 1500, 2000 };
	struct trace_data td;
	struct tr_cursor c;
	struct tr_event ev;
	unsigned n = 0, ordered = 1;

	if (tr_open(&td, dir)) {
		fail("contexts: cursor order", td.err);
		return;
	}
	tr_cursor_init(&c, &td, &td.threads[0]);
	while (tr_cursor_next(&c, &ev)) {
		ordered &= n < sizeof(want) / sizeof(want[0]) && ev.time == want[n];
		n++;
	}
	tr_cursor_free(&c);
	if (td.nr_threads != 1 || !ordered || n != sizeof(want) / sizeof(want[0]))
		fail("contexts: one thread, events merged in time order", "wrong order or count");
	else
		pass("contexts: one thread, events merged in time order");
	tr_close(&td);
}

int main(void)
{
	const char *dir;

	if (fixture_begin("contexts"))
		return 1;
	dir = make_dir();
	test_merged_graph(dir);
	test_cursor_order(dir);
	return fixture_end();
}
