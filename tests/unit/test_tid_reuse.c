// SPDX-License-Identifier: GPL-2.0
/*
 * A tid the kernel gave to two threads of one recording, one after the
 * other (it hands tids out again past pid_max, 32768 here): each
 * thread's chunks are a stream of their own, the later one's after the
 * earlier one's (ft_seq_first), whatever the order in the file.  Before,
 * both were numbered from 0, and their chunks sorted between each other:
 * the later thread's calls nested inside the earlier one's, and the
 * earlier one's exits closed the later one's calls.
 * Prints "PASS: name" or "FAIL: name: why".
 */
#include "report_fixture.h"

#define FUNCS "func 1 0x401000 0 main\nfunc 2 0x401010 0 work\nfunc 3 0x401020 0 leaf\n"
#define P " 0)    demo-12     | "

/* Thread 1 of the recording: work() { leaf(); across its two chunks, the
 * second closing work (or entering leaf again); thread 2, on the same
 * tid: leaf(), in one.  The directory. */
static const char *two_threads(const char *name, int close_work)
{
	const char *dir = new_dir(name);
	struct chunk c[3];

	put_file(dir, "info", INFO("function_graph", "pid: 12\nexit: status 0\n"));
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c[0], 12, 12, ft_seq_first(1), 1000, 0, "demo");
	c[0].hdr.depth = 1;
	entry(&c[0], 1100, 2);
	entry(&c[0], 1200, 3);
	exit_plain(&c[0], 1300);
	chunk_start(&c[1], 12, 12, ft_seq_first(2), 3000, 0, "demo");
	c[1].hdr.depth = 1;
	entry(&c[1], 3100, 3);
	exit_plain(&c[1], 3200);
	chunk_start(&c[2], 12, 12, ft_seq_first(1) + 1, 1400, 0, "demo");
	c[2].hdr.depth = 2;
	if (close_work)
		exit_plain(&c[2], 1500);
	else
		entry(&c[2], 1500, 3);
	put_trace(dir, c, 3);
	return dir;
}

static void test_each_its_own(void)
{
	expect_output("tid reuse: each thread its own stream, in their order",
		two_threads("own", 1), NULL,
		GRAPH_HEADER
		P "              |  work() {\n"
		P "  0.100 us    |    leaf();\n"
		P "  0.400 us    |  } /* work */\n"
		P "  0.100 us    |  leaf();\n"
		"# program exited with status 0\n");
}

/* The earlier thread's trace ends inside leaf (its last events were
 * never written): left open there, as where any thread's trace ends, and
 * the later one does not begin inside it. */
static void test_left_open(void)
{
	expect_output("tid reuse: what the earlier left open is not the later's",
		two_threads("open", 0), NULL,
		GRAPH_HEADER
		P "              |  work() {\n"
		P "  0.100 us    |    leaf();\n"
		P "              |    leaf() {\n"
		P "  0.100 us    |  leaf();\n"
		"# program exited with status 0\n");
}

int main(void)
{
	if (fixture_begin("tid_reuse"))
		return 1;
	test_each_its_own();
	test_left_open();
	return fixture_end();
}
