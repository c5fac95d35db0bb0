// SPDX-License-Identifier: GPL-2.0
/*
 * A stream read in parts (ctl trace_pipe): each part is reported as it
 * comes, the frames open at its end carried into the next, and each
 * thread's trace goes on from its last piece in the parts before.  A
 * piece that does not follow on (the ring overwrote what came between,
 * before the reader took it) is a gap, said as the kernel says events
 * lost it cannot count; one that follows on is not, and the call open
 * across the parts closes with its name.
 * Prints "PASS: name" or "FAIL: name: why".
 */
#include "report_fixture.h"
#include "trace/report.h"

#define FUNCS "func 1 0x401000 0 main\nfunc 2 0x401010 0 work\nfunc 3 0x401020 0 leaf\n"
#define P " 0)    demo-12     | "

/* A part: the thread's chunk seq, from byte `from` of it, at depth; its
 * directory, to free. */
static char *part(const char *name, uint64_t seq, uint32_t from, uint32_t depth, uint64_t t)
{
	char *dir = strdup(new_dir(name));
	struct chunk c;

	put_file(dir, "info", INFO("function_graph", "pid: 12\n"));
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c, 12, 12, seq, t, 0, "demo");
	c.hdr.depth = depth;
	c.hdr.consumed = ft_piece_mark(from);
	if (depth == 1) {
		entry(&c, t + 100, 2);
		entry(&c, t + 200, 3);
		exit_plain(&c, t + 300);
	} else {
		exit_plain(&c, t + 400);
	}
	put_trace(dir, &c, 1);
	return dir;
}

/* The graph of part one, then of the second, as trace_pipe prints them. */
static void expect_parts(const char *name, char *second, const char *want)
{
	struct report_carry carry = { 0 };
	struct report_options o = { .live = 1, .carry = &carry };
	char *first = part("one", 0, 0, 1, 1000);
	struct result one = run(first, &o), two;

	o.no_header = 1;
	two = run(second, &o);
	if (one.status || two.status)
		fail(name, "report_run failed");
	else if (strcmp(two.out, want)) {
		fail(name, "unexpected output");
		explain_difference(two.out, want);
	} else {
		pass(name);
	}
	free_result(&one);
	free_result(&two);
	report_carry_free(&carry);
	free(first);
	free(second);
}

int main(void)
{
	if (fixture_begin("parts"))
		return 1;
	/* Part one: work() { leaf(); in seq 0's first 12 bytes. */
	expect_parts("parts: the next piece of the chunk follows on",
		part("next", 0, 12, 2, 2000),
		P "  1.300 us    |  } /* work */\n");
	expect_parts("parts: the start of the next chunk follows on",
		part("chunk", 1, 0, 2, 2000),
		P "  1.300 us    |  } /* work */\n");
	expect_parts("parts: a piece missing between them is a gap, said",
		part("gap", 0, 16, 2, 2000),
		" CPU:0 [LOST EVENTS]\n"
		P "              |  } /* ? */\n"
		"# gaps where events were lost, how many not known: 1\n"
		"#   demo-12: 1\n");
	expect_parts("parts: so is a chunk missing between them",
		part("chunks", 2, 0, 2, 2000),
		" CPU:0 [LOST EVENTS]\n"
		P "              |  } /* ? */\n"
		"# gaps where events were lost, how many not known: 1\n"
		"#   demo-12: 1\n");
	return fixture_end();
}
