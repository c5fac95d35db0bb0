// SPDX-License-Identifier: GPL-2.0
/*
 * Recorded arguments and return values (ARGS events) in the report's
 * views and in the Chrome JSON export, on synthetic data directories:
 * where each line puts them, that an entry keeps its values while a view
 * holds it across chunks, and that damaged ARGS events are read safely.
 */
#include "trace/export.h"
#include "report_fixture.h"

/* An entry and the one value it was given. */
static void entry_arg(struct chunk *c, uint64_t t, uint32_t id, int64_t v)
{
	unsigned at;

	entry(c, t, id);
	at = args_begin(c);
	arg_int(c, FT_ARG_SIGNED, 1, v);
	args_end(c, at, 0);
}

/* An exit and the value it gave back, signed. */
static void exit_typed(struct chunk *c, uint64_t t, int64_t v)
{
	unsigned at = args_begin(c);

	arg_int(c, FT_ARG_SIGNED, 0, v);
	args_end(c, at, FT_ARGS_OF_RETURN);
	exit_plain(c, t);
}

/* ---- function_graph ---- */

#define FUNCS "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"		\
	      "func 1 0x401000 0 main\nfunc 2 0x401010 0 parse_expr\n"	\
	      "func 3 0x401020 0 f\nfunc 4 0x401030 0 g\nfunc 5 0x401040 0 h\n"

/* main { parse_expr("1+2*x", 5) { f(5, 0x10); g(5) = 7 } = 7; f() = 0x2a
 * untyped; h() = 3 typed and untyped } */
static const char *make_graph_dir(void)
{
	const char *dir = new_dir("graph");
	struct chunk c;
	unsigned at;

	put_file(dir, "info", INFO("function_graph", "pid: 12\noptions: retval\n"
				   "exit: status 0\n"));
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c, 12, 12, 0, 1000, 0, "demo");
	entry(&c, 1000, 1);
	entry(&c, 1100, 2);
	at = args_begin(&c);
	arg_str(&c, 1, "1+2*x");
	arg_int(&c, FT_ARG_SIGNED, 2, 5);
	args_end(&c, at, 0);
	entry(&c, 1200, 3);
	at = args_begin(&c);
	arg_int(&c, FT_ARG_SIGNED, 1, 5);
	arg_int(&c, FT_ARG_HEX, 2, 0x10);
	args_end(&c, at, 0);
	exit_plain(&c, 1300);
	entry_arg(&c, 1400, 4, 5);
	exit_typed(&c, 1500, 7);
	exit_typed(&c, 1600, 7);
	entry(&c, 1700, 3);
	exit_ret(&c, 1800, 0x2a);
	entry(&c, 1850, 5);
	at = args_begin(&c);
	arg_int(&c, FT_ARG_SIGNED, 0, 3);
	args_end(&c, at, FT_ARGS_OF_RETURN);
	exit_ret(&c, 1870, 0x99);
	exit_plain(&c, 1900);
	put_trace(dir, &c, 1);
	return dir;
}

#define P " 0)    demo-12     | "

static void test_graph(const char *dir)
{
	struct report_options notail = { .show_off = REPORT_SHOW_TAIL };
	struct report_options noretval = { .show_off = REPORT_SHOW_RETVAL };

	expect_output("graph: arguments, typed return values in the untyped one's place", dir,
		NULL,
		GRAPH_HEADER
		P "              |  main() {\n"
		P "              |    parse_expr(\"1+2*x\", 5) {\n"
		P "  0.100 us    |      f(5, 0x10);\n"
		P "  0.100 us    |      g(5); /* = 7 */\n"
		P "  0.500 us    |    } /* parse_expr = 7 */\n"
		P "  0.100 us    |    f(); /* = 0x2a */\n"
		P "  0.020 us    |    h(); /* = 3 */\n"
		P "  0.900 us    |  } /* main */\n"
		"# program exited with status 0\n");
	expect_output("graph: -O notail, a typed return value alone in the comment", dir,
		&notail,
		GRAPH_HEADER
		P "              |  main() {\n"
		P "              |    parse_expr(\"1+2*x\", 5) {\n"
		P "  0.100 us    |      f(5, 0x10);\n"
		P "  0.100 us    |      g(5); /* = 7 */\n"
		P "  0.500 us    |    } /* = 7 */\n"
		P "  0.100 us    |    f(); /* = 0x2a */\n"
		P "  0.020 us    |    h(); /* = 3 */\n"
		P "  0.900 us    |  }\n"
		"# program exited with status 0\n");
	expect_output("graph: -O noretval hides only the untyped return value", dir,
		&noretval,
		GRAPH_HEADER
		P "              |  main() {\n"
		P "              |    parse_expr(\"1+2*x\", 5) {\n"
		P "  0.100 us    |      f(5, 0x10);\n"
		P "  0.100 us    |      g(5); /* = 7 */\n"
		P "  0.500 us    |    } /* parse_expr = 7 */\n"
		P "  0.100 us    |    f();\n"
		P "  0.020 us    |    h(); /* = 3 */\n"
		P "  0.900 us    |  } /* main */\n"
		"# program exited with status 0\n");
}

static void expect_in_report(const char *name, const char *dir,
			     const struct report_options *o, const char *piece)
{
	struct result r = run(dir, o);

	if (r.status == 0 && strstr(r.out, piece))
		pass(name);
	else
		fail(name, r.out);
	free_result(&r);
}

/* The values of an entry outlive the chunk they came in, read into the
 * same memory as the chunks after it (no longer than the first): a leaf
 * whose exit is in the next chunk, and a call --min-duration holds until
 * its exit, two chunks later, while other calls' values come and go. */
static void test_held_entries(void)
{
	const char *dir = new_dir("held");
	struct report_options longer = { .min_duration = 1000 };
	struct chunk c[3];

	put_file(dir, "info", INFO("function_graph", "pid: 12\n"));
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c[0], 12, 12, 0, 1000, 0, "demo");
	entry_arg(&c[0], 1000, 1, 11);
	for (unsigned i = 0; i < 20; i++) {
		entry_arg(&c[0], 1100 + 10 * i, 4, 100 + i);
		exit_typed(&c[0], 1105 + 10 * i, -1);
	}
	entry_arg(&c[0], 1400, 3, 22);
	chunk_start(&c[1], 12, 12, 1, 1500, 0, "demo");
	exit_plain(&c[1], 1500);
	entry_arg(&c[1], 1600, 4, 33);
	exit_plain(&c[1], 1700);
	chunk_start(&c[2], 12, 12, 2, 2000, 0, "demo");
	exit_plain(&c[2], 3000);
	put_trace(dir, c, 3);

	expect_output("held: --min-duration keeps the values of a call it held", dir, &longer,
		GRAPH_HEADER
		P "  2.000 us    |  main(11);\n"
		"# program still running or recorder stopped\n");
	expect_in_report("held: values of calls in one chunk", dir, NULL,
		P "              |  main(11) {\n"
		P "  0.005 us    |    g(100); /* = -1 */\n");
	expect_in_report("held: a leaf's exit in the next chunk", dir, NULL,
		P "  0.005 us    |    g(119); /* = -1 */\n"
		P "  0.100 us    |    f(22);\n"
		P "  0.100 us    |    g(33);\n");
}

/* Damaged ARGS events: an unknown type, one that follows no call, a
 * return's that no exit follows, and one longer than its chunk. */
static void test_damaged(void)
{
	const char *dir = new_dir("damaged");
	struct result r;
	struct chunk c;
	unsigned at;

	put_file(dir, "info", INFO("function_graph", "pid: 12\n"));
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c, 12, 12, 0, 1000, 0, "demo");
	entry(&c, 1000, 1);
	at = args_begin(&c);
	arg_int(&c, FT_ARG_SIGNED, 1, 5);
	arg_int(&c, 0x7f, 2, 5);
	put(&c, ft_arg_head(FT_ARG_STRING, 3, 100));	/* past the event */
	args_end(&c, at, 0);
	entry(&c, 1100, 3);
	exit_plain(&c, 1200);
	at = args_begin(&c);				/* follows no call */
	arg_int(&c, FT_ARG_SIGNED, 1, 9);
	args_end(&c, at, 0);
	at = args_begin(&c);				/* no exit follows */
	arg_int(&c, FT_ARG_SIGNED, 0, 9);
	args_end(&c, at, FT_ARGS_OF_RETURN);
	entry(&c, 1300, 4);
	exit_plain(&c, 1400);
	entry(&c, 1500, 5);
	put(&c, ft_long_word(FT_LONG_ARGS, 40));	/* past the chunk */
	arg_int(&c, FT_ARG_SIGNED, 1, 9);
	put_trace(dir, &c, 1);

	r = run(dir, NULL);
	if (r.status == 0 && strstr(r.out, "|  main(5, ?) {\n") &&
	    strstr(r.out, "|    f();\n") && strstr(r.out, "|    g();\n") &&
	    strstr(r.out, "|    h() {\n") && strstr(r.err, "1 chunk end"))
		pass("damaged: what fits is shown, the rest left out, the chunk cut");
	else
		fail("damaged: what fits is shown, the rest left out, the chunk cut", r.out);
	free_result(&r);
}

/* ---- the function tracer ---- */

static void test_function(void)
{
	const char *dir = new_dir("function");
	struct result r;
	struct chunk c;
	unsigned at;

	put_file(dir, "info", INFO("function", "pid: 12\n"));
	put_file(dir, "funcs-12", FUNCS);
	chunk_start(&c, 12, 12, 0, 1000, 0, "demo");
	func(&c, 1000, 2, 0);
	at = args_begin(&c);
	arg_str(&c, 1, "1+2");
	arg_int(&c, FT_ARG_UNSIGNED, 2, 5);
	args_end(&c, at, 0);
	func(&c, 2000, 3, 0);
	put_trace(dir, &c, 1);

	r = run(dir, NULL);
	if (r.status == 0 && strstr(r.out, ": parse_expr(\"1+2\", 5)\n") &&
	    strstr(r.out, ": f\n"))
		pass("function: the values after the name");
	else
		fail("function: the values after the name", r.out);
	free_result(&r);
}

/* ---- Chrome JSON ---- */

static char *export_chrome_text(const char *dir, const char *name)
{
	char *out = strdup(path_of(base, name)), *text = NULL;
	struct export_options o = { .input = dir, .output = out, .format = "chrome" };
	FILE *f;

	if (export_run(&o) == 0 && (f = fopen(out, "r"))) {
		text = read_all(f);
		fclose(f);
	}
	free(out);
	return text;
}

static void expect_json(const char *name, const char *text, const char *piece)
{
	if (text && strstr(text, piece)) {
		pass(name);
		return;
	}
	fail(name, "not in the export:");
	printf("  %s\n  %s\n", piece, text ? text : "(no export)");
}

static void test_chrome(const char *dir)
{
	char *text = export_chrome_text(dir, "graph.json");

	expect_json("chrome: the values a call was given on its B", text,
		    "\"ph\":\"B\",\"name\":\"parse_expr\","
		    "\"args\":{\"arg1\":\"\\\"1+2*x\\\"\",\"arg2\":\"5\"}}");
	expect_json("chrome: a call without values has no args", text,
		    "\"ph\":\"B\",\"name\":\"main\"}");
	expect_json("chrome: a typed return value on the E, as retval", text,
		    "\"ph\":\"E\",\"name\":\"g\",\"args\":{\"retval\":\"7\"}}");
	expect_json("chrome: the typed value in the untyped one's place", text,
		    "\"ph\":\"E\",\"name\":\"h\",\"args\":{\"retval\":\"3\"}}");
	expect_json("chrome: an untyped return value as before", text,
		    "\"ph\":\"E\",\"name\":\"f\",\"args\":{\"retval\":\"0x2a\"}}");
	free(text);
}

int main(void)
{
	char *graph;

	if (fixture_begin("report-args"))
		return 1;
	graph = strdup(make_graph_dir());	/* new_dir()'s buffer is reused */
	test_graph(graph);
	test_held_entries();
	test_damaged();
	test_function();
	test_chrome(graph);
	free(graph);
	return fixture_end();
}
