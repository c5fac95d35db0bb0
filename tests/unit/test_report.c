// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace report on synthetic data directories: each test writes info,
 * funcs-<pid> and a trace.dat of hand-made events with fixed times, runs
 * report_run() into memory and compares the text with the exact layout
 * the kernel would print.  Prints "PASS: name" or "FAIL: name: why".
 */
#include "cli/cli.h"
#include "trace/trace_reader.h"
#include "elf/elf.h"
#include "report_fixture.h"

#include <elf.h>

/* ---- function_graph: leaves, nesting, every duration mark ---- */

static void test_graph_durations(void)
{
	static const struct { const char *name; uint64_t ns; } leaves[] = {
		{ "tiny", 101 }, { "ten_us", 10000 }, { "plus", 10001 },
		{ "bang", 100001 }, { "hash", 1234567 }, { "star", 12345678 },
		{ "at", 123456789 }, { "dollar", 1234567890 },
		{ "big", 12345678000ull },
	};
	const char *dir = new_dir("durations");
	struct chunk c;
	uint64_t t = 1001000;

	put_file(dir, "info", INFO("function_graph", "pid: 12\nexit: status 0\n"
				   "some_future_key: ignored\n"));
	put_file(dir, "funcs-12",
		 "module 0 0x0 0x400000 0x500000 /nonexistent/demo dir/demo\n"
		 "func 1 0x401000 0 main\nfunc 2 0x401010 0 tiny\n"
		 "func 3 0x401020 0 ten_us\nfunc 4 0x401030 0 plus\n"
		 "func 5 0x401040 0 bang\nfunc 6 0x401050 0 hash\n"
		 "func 7 0x401060 0 star\nfunc 8 0x401070 0 at\n"
		 "func 9 0x401080 0 dollar\nfunc 10 0x401090 0 big\n");
	chunk_start(&c, 12, 12, 0, 1000000, 0, "demo");
	entry(&c, 1000000, 1);
	for (unsigned i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++) {
		entry(&c, t, i + 2);
		exit_plain(&c, t + leaves[i].ns);
		t += leaves[i].ns + 1000;
	}
	exit_plain(&c, t);
	/* A zero word ends the chunk: what follows must not be read. */
	put(&c, 0);
	put(&c, ft_entry_word(2, 1));
	put_trace(dir, &c, 1);

#define P " 0)    demo-12     | "
	expect_output("graph: leaves, nesting and every duration mark", dir, NULL,
		GRAPH_HEADER
		P "              |  main() {\n"
		P "  0.101 us    |    tiny();\n"
		P "  10.000 us   |    ten_us();\n"
		P "+ 10.001 us   |    plus();\n"
		P "! 100.001 us  |    bang();\n"
		P "# 1234.567 us |    hash();\n"
		P "* 12345.67 us |    star();\n"
		P "@ 123456.7 us |    at();\n"
		P "$ 1234567 us  |    dollar();\n"
		P "$ 12345678 us |    big();\n"
		P "$ 13717413 us |  } /* main */\n"
		"# program exited with status 0\n");
#undef P
}

/* ---- function_graph: retval, unwound frames, markers, odd exits ---- */

static void test_graph_retval_unwind(void)
{
	const char *dir = new_dir("retval");
	struct chunk c;

	put_file(dir, "info", INFO("function_graph", "pid: 20\noptions: retval\n"
				   "exit: signal 11 SIGSEGV (core dumped)\n"));
	put_file(dir, "funcs-20",
		 "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 main\nfunc 2 0x401010 0 parse\n"
		 "func 3 0x401020 0 lex\nfunc 4 0x401030 0 open\n"
		 "func 5 0x401040 0 jumper\nfunc 6 0x401050 0 thrower\n"
		 "func 7 0x401060 0 big\n");
	/* A 16-byte name with no NUL, and a CPU nobody recorded. */
	chunk_start(&c, 20, 20, 0, 5000, TR_NO_CPU, "averyverylongname");
	exit_plain(&c, 5000);			/* entered before tracing began */
	entry(&c, 14000, 1);			/* delta 9000: a long entry */
	marker(&c, "hello\n");
	entry(&c, 14200, 2);
	entry(&c, 14300, 3);
	exit_ret(&c, 14400, 0x2a);
	entry(&c, 14500, 4);
	exit_ret(&c, 14600, 0xfffffffe);	/* an int -2 */
	exit_ret(&c, 14700, (uint64_t)-12);	/* a long -12 */
	entry(&c, 14800, 5);
	entry(&c, 14900, 6);
	unwind(&c, 15000);
	unwind(&c, 15000);
	entry(&c, 15100, 7);
	exit_ret(&c, 15200, 0x1000000000ull);
	exit_plain(&c, 15300);
	put_trace(dir, &c, 1);

#define Q " ?)   averyve-20   | "
	expect_output("graph: retval, unwound frames, marker, orphan exit", dir, NULL,
		GRAPH_HEADER
		Q "              |  }\n"
		Q "              |  main() {\n"
		Q "              |    /* hello */\n"
		Q "              |    parse() {\n"
		Q "  0.100 us    |      lex(); /* = 0x2a */\n"
		Q "  0.100 us    |      open(); /* = -2 */\n"
		Q "  0.500 us    |    } /* parse = -12 */\n"
		Q "              |    jumper() {\n"
		Q "              |      thrower() {\n"
		Q "  0.100 us    |      } /* thrower: unwound */\n"
		Q "  0.200 us    |    } /* jumper: unwound */\n"
		Q "  0.100 us    |    big(); /* = 0x1000000000 */\n"
		Q "  1.300 us    |  } /* main */\n"
		"# program killed by signal 11 (SIGSEGV), core dumped\n");
#undef Q
}

/* ---- function_graph: threads merged by time, banners, lost events ---- */

static const char *make_threads_dir(void)
{
	const char *dir = new_dir("threads");
	struct chunk c[4];

	put_file(dir, "info", INFO("function_graph", "pid: 30\n"));
	put_file(dir, "funcs-30",
		 "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 main\nfunc 2 0x401010 0 a\nfunc 3 0x401020 0 b\n"
		 "func 4 0x401030 0 work\nfunc 5 0x401040 0 x\n"
		 "func 6 0x401050 0 io_loop\nfunc 7 0x401060 0 read\n");
	/* demo's second chunk comes first in the file: seq decides. */
	chunk_start(&c[0], 30, 30, 1, 2000, 0, "demo");
	lost(&c[0], 5, 1);		/* a's exit was among them */
	exit_plain(&c[0], 5000);
	chunk_start(&c[1], 30, 31, 0, 1250, 0, "worker");
	entry(&c[1], 1250, 4);
	entry(&c[1], 1400, 5);
	exit_plain(&c[1], 1450);
	exit_plain(&c[1], 1500);
	lost(&c[1], 7, 2);		/* resumed two calls deep */
	exit_plain(&c[1], 1700);
	exit_plain(&c[1], 1800);
	exit_plain(&c[1], 1900);
	chunk_start(&c[2], 30, 30, 0, 1000, 0, "demo");
	entry(&c[2], 1000, 1);
	entry(&c[2], 1100, 2);
	entry(&c[2], 1200, 3);
	exit_plain(&c[2], 1300);
	chunk_start(&c[3], 30, 32, 0, 1100, 1, "io");
	entry(&c[3], 1100, 6);		/* same time as a: demo goes first */
	cpu(&c[3], 3);
	entry(&c[3], 1150, 7);
	exit_plain(&c[3], 1160);
	exit_plain(&c[3], 1600);
	put_trace(dir, c, 4);
	return dir;
}

#define D " 0)    demo-30     | "
#define W " 0)   worker-31    | "
#define IO " 1)     io-32      | "
#define IO3 " 3)     io-32      | "
#define BANNER(from, to)						\
	" ------------------------------------------\n"			\
	" 0) " from " => " to "\n"					\
	" ------------------------------------------\n\n"

static void test_graph_threads(void)
{
	const char *dir = make_threads_dir();
	uint32_t tid = 31;
	struct report_options only_worker = { .tids = &tid, .nr_tids = 1 };

	expect_output("graph: threads merged, context switch banner, lost events", dir, NULL,
		GRAPH_HEADER
		D "              |  main() {\n"
		D "              |    a() {\n"
		IO "              |  io_loop() {\n"
		IO3 "  0.010 us    |    read();\n"
		D "  0.100 us    |      b();\n"
		BANNER("   demo-30    ", "  worker-31   ")
		W "              |  work() {\n"
		W "  0.050 us    |    x();\n"
		W "  0.250 us    |  } /* work */\n"
		" CPU:0 [LOST 7 EVENTS]\n"
		IO3 "  0.500 us    |  } /* io_loop */\n"
		W "              |    } /* ? */\n"
		W "              |  } /* ? */\n"
		W "              |  }\n"
		" CPU:0 [LOST 5 EVENTS]\n"
		BANNER("  worker-31   ", "   demo-30    ")
		D "  4.000 us    |  } /* main */\n"
		"# lost events: 12\n"
		"#   demo-30: 5\n"
		"#   worker-31: 7\n"
		"# program still running or recorder stopped\n");
	expect_output("graph: --tid keeps one thread", dir, &only_worker,
		GRAPH_HEADER
		W "              |  work() {\n"
		W "  0.050 us    |    x();\n"
		W "  0.250 us    |  } /* work */\n"
		" CPU:0 [LOST 7 EVENTS]\n"
		W "              |    } /* ? */\n"
		W "              |  } /* ? */\n"
		W "              |  }\n"
		"# lost events: 7\n"
		"#   worker-31: 7\n"
		"# program still running or recorder stopped\n");
}

/* A loss in which a() returned unseen and b() was entered unseen, as deep
 * (buffer.c's two LOSTs): b()'s exit closes a stand-in, not a(); main(),
 * open all along, keeps its name and time. */
static void test_graph_loss_reentered(void)
{
	const char *dir = new_dir("reentered");
	struct chunk c;

	put_file(dir, "info", INFO("function_graph", "pid: 30\n"));
	put_file(dir, "funcs-30", "func 1 0x401000 0 main\nfunc 2 0x401010 0 a\n"
		 "func 3 0x401020 0 b\n");
	chunk_start(&c, 30, 30, 0, 1000, 0, "demo");
	entry(&c, 1000, 1);
	entry(&c, 1100, 2);
	lost(&c, 4, 1);
	lost(&c, 0, 2);
	exit_plain(&c, 1500);
	entry(&c, 1600, 3);
	exit_plain(&c, 1700);
	exit_plain(&c, 2000);
	put_trace(dir, &c, 1);
	expect_output("graph: a call entered unseen in a loss is not the one open before it", dir,
		NULL,
		GRAPH_HEADER
		D "              |  main() {\n"
		D "              |    a() {\n"
		" CPU:0 [LOST 4 EVENTS]\n"
		D "              |    } /* ? */\n"
		D "  0.100 us    |    b();\n"
		D "  1.000 us    |  } /* main */\n"
		"# lost events: 4\n"
		"#   demo-30: 4\n"
		"# program still running or recorder stopped\n");
}

#undef D
#undef W
#undef IO
#undef IO3
#undef BANNER

/* ---- the function tracer ---- */

/* The link-time value of a function of this very program, to have a
 * caller that the ELF symbol table can name. */
static uint64_t own_symbol(const char *exe, const char *name)
{
	struct elf_file f;
	struct elf_sym s;
	uint64_t value = 0;
	int symtab;

	if (elf_open_path(&f, exe))
		return 0;
	symtab = elf_find_section_type(&f, SHT_SYMTAB);
	for (unsigned i = 0; symtab > 0 && i < elf_sym_count(&f, symtab); i++)
		if (!elf_sym_get(&f, symtab, i, &s) && !strcmp(s.name, name))
			value = s.value;
	elf_close(&f);
	return value;
}

static void test_function_tracer(void)
{
	const char *dir = new_dir("function");
	char exe[PATH_MAX] = "", funcs[PATH_MAX + 256];
	const uint64_t bias = 0x7f0000000000ull;
	struct chunk c[2];
	uint64_t value;

	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) < 0 ||
	    !(value = own_symbol(exe, "report_run"))) {
		fail("function: layout and callers", "cannot read this test's symbols");
		return;
	}
	/* Two ticks a nanosecond from 1000 ticks = 17284.993652000 s. */
	put_file(dir, "info", "fntrace-data: 1\ntracer: function\npid: 40\n"
		 "clock_sync: 1000 17284993652000 3000 17284993653000\n"
		 "exit: status 0\n");
	snprintf(funcs, sizeof(funcs),
		 "module 0 %#llx %#llx %#llx %s\n"
		 "module 1 0x0 0x400000 0x500000 /nonexistent/lib.so\n"
		 "func 1 0x401000 1 main\nfunc 2 0x401010 1 helper\n"
		 "func 3 0x401020 1 worker\n", (unsigned long long)bias,
		 (unsigned long long)bias, (unsigned long long)bias + 0x10000000, exe);
	put_file(dir, "funcs-40", funcs);
	chunk_start(&c[0], 40, 40, 0, 1000, 2, "demo");
	func(&c[0], 1000, 1, 0);			/* no caller: no arrow */
	func(&c[0], 2001, 2, bias + value + 4);	/* 500 ns: rounds up */
	func(&c[0], 4000, 2, 0xdead);			/* in no module */
	chunk_start(&c[1], 40, 41, 0, 1500, 0, "a-long-thread-n");
	func(&c[1], 1500, 3, 0x401234);			/* module file missing */
	lost(&c[1], 3, 0);
	marker(&c[1], "mark");
	put_trace(dir, c, 2);

	expect_output("function: layout, timestamps and callers", dir, NULL,
		"# tracer: function\n"
		"#\n"
		"# entries-in-buffer/entries-written: 5/8   #P:2\n"
		"#\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n"
		"            demo-40      [002] .....  17284.993652: main\n"
		" a-long-thread-n-41      [000] .....  17284.993652: worker <-lib.so+0x401234\n"
		" CPU:0 [LOST 3 EVENTS]\n"
		" a-long-thread-n-41      [000] .....  17284.993652: tracing_mark_write: mark\n"
		"            demo-40      [002] .....  17284.993653: helper <-report_run\n"
		"            demo-40      [002] .....  17284.993654: helper <-0xdead\n"
		"# lost events: 3\n"
		"#   a-long-thread-n-41: 3\n"
		"# program exited with status 0\n");
}

/* ---- stack traces (the stacktrace trigger), in both views ---- */

/* A stack of ids the shadow stack gave, and one of an id and return
 * addresses the frame-pointer chain gave: one in this program's text, one
 * in no module. */
static void put_stacks(const char *dir, const char *tracer, const char *exe, uint64_t ret)
{
	static const uint32_t shadow[] = { 3, 2, 1 }, hit[] = { 3 };
	const uint64_t bias = 0x7f0000000000ull, addrs[] = { bias + ret, 0xdead };
	char info[256], funcs[PATH_MAX + 256];
	struct chunk c;

	snprintf(info, sizeof(info), "fntrace-data: 1\ntracer: %s\npid: 60\n"
		 "clock_sync: 1000 17284993652000 3000 17284993653000\nexit: status 0\n", tracer);
	put_file(dir, "info", info);
	snprintf(funcs, sizeof(funcs), "module 0 %#llx %#llx %#llx %s\n"
		 "func 1 0x401000 0 main\nfunc 2 0x401010 0 parse\nfunc 3 0x401020 0 lex\n",
		 (unsigned long long)bias, (unsigned long long)bias,
		 (unsigned long long)bias + 0x10000000, exe);
	put_file(dir, "funcs-60", funcs);
	chunk_start(&c, 60, 60, 0, 1000, 1, "demo");
	if (!strcmp(tracer, "function")) {
		func(&c, 1000, 3, 0);
		stack(&c, 1200, hit, 1, addrs, 2);
	} else {
		entry(&c, 1000, 1);
		entry(&c, 1100, 2);
		stack(&c, 1200, shadow, 3, NULL, 0);
		entry(&c, 1300, 3);
		exit_plain(&c, 1400);
		exit_plain(&c, 1500);
		exit_plain(&c, 1600);
	}
	put_trace(dir, &c, 1);
}

static void test_stack_traces(void)
{
	char exe[PATH_MAX] = "";
	uint64_t value;

	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) < 0 ||
	    !(value = own_symbol(exe, "report_run"))) {
		fail("stack traces", "cannot read this test's symbols");
		return;
	}
	put_stacks(new_dir("stack_graph"), "function_graph", exe, value + 4);
	put_stacks(new_dir("stack_function"), "function", exe, value + 4);
#define Q " 1)    demo-60     | "
	expect_output("stack traces: in the graph, a comment", new_dir("stack_graph"), NULL,
		GRAPH_HEADER
		Q "              |  main() {\n"
		Q "              |    parse() {\n"
		Q "              |      /* <stack trace>\n"
		" => lex\n"
		" => parse\n"
		" => main */\n"
		Q "  0.050 us    |      lex();\n"
		Q "  0.200 us    |    } /* parse */\n"
		Q "  0.300 us    |  } /* main */\n"
		"# program exited with status 0\n");
#undef Q
	expect_output("stack traces: in the function view, an entry; addresses named",
		new_dir("stack_function"), NULL,
		"# tracer: function\n"
		"#\n"
		"# entries-in-buffer/entries-written: 2/2   #P:1\n"
		"#\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n"
		"            demo-60      [001] .....  17284.993652: lex\n"
		"            demo-60      [001] .....  17284.993652: <stack trace>\n"
		" => lex\n"
		" => report_run\n"
		" => 0xdead\n"
		"# program exited with status 0\n");
}

/* ---- the profile ---- */

#define STAT_HEADER							\
	"  Function                               Hit    Time            " \
	"Avg             s^2             Self\n"				\
	"  --------                               ---    ----            " \
	"---             ---             ----\n"

static const char *make_stat_dir(void)
{
	const char *dir = new_dir("stat");
	struct chunk c[2];

	put_file(dir, "info", INFO("function_graph", "pid: 50\nexit: status 3\n"));
	put_file(dir, "funcs-50",
		 "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 main\nfunc 2 0x401010 0 fib\n"
		 "func 3 0x401020 0 add\nfunc 4 0x401030 0 work\n");
	chunk_start(&c[0], 50, 50, 0, 0, 0, "demo");
	entry(&c[0], 0, 1);
	entry(&c[0], 100000, 2);
	entry(&c[0], 200000, 2);	/* fib recurses */
	entry(&c[0], 250000, 3);
	exit_plain(&c[0], 260000);
	exit_plain(&c[0], 400000);
	exit_plain(&c[0], 600000);
	entry(&c[0], 700000, 3);
	exit_plain(&c[0], 710000);
	exit_plain(&c[0], 1000000);
	chunk_start(&c[1], 50, 51, 0, 0, 1, "worker");
	entry(&c[1], 0, 4);		/* never returns */
	entry(&c[1], 100, 3);
	exit_plain(&c[1], 200);
	put_trace(dir, c, 2);
	return dir;
}

static void test_stat(void)
{
	const char *dir = make_stat_dir();
	struct report_options stat = { .stat = 1 }, csv = { .csv = 1 };

	/* main: 1000 us, less fib (500) and add (10): 490 us of its own.
	 * fib: the outer call only (500 us); self 300 + 190 us; s^2 of 500
	 * and 200 us is 45000 us^2.  work: open at the end, counted to 200 ns. */
	expect_output("stat: recursion, self time, open calls, s^2", dir, &stat,
		STAT_HEADER
		"  main                                     1    1000.000 us     1000.000 us     0.000 us        490.000 us\n"
		"  fib                                      2    500.000 us      250.000 us      45000.00 us     490.000 us\n"
		"  add                                      3    20.100 us       6.700 us        32.670 us       20.100 us\n"
		"  work                                     1    0.200 us        0.200 us        0.000 us        0.100 us\n"
		"# program exited with status 3\n");
	expect_output("csv: the same numbers in ns", dir, &csv,
		"function,hits,total_ns,self_ns,avg_ns\n"
		"main,1,1000000,490000,1000000\n"
		"fib,2,500000,490000,250000\n"
		"add,3,20100,20100,6700\n"
		"work,1,200,100,200\n");
}

static void test_function_stat(void)
{
	const char *dir = new_dir("fstat");
	struct report_options stat = { .stat = 1 }, csv = { .csv = 1 };
	struct chunk c;

	put_file(dir, "info", INFO("function", "pid: 60\nexit: status 0\n"));
	put_file(dir, "funcs-60",
		 "module 0 0x0 0x400000 0x500000 /nonexistent/demo\n"
		 "func 1 0x401000 0 operator,(a, b)\nfunc 2 0x401010 0 say \"hi\"\n"
		 "func 3 0x401020 0 plain\n");
	chunk_start(&c, 60, 60, 0, 0, 0, "demo");
	func(&c, 10, 1, 0);
	func(&c, 20, 3, 0);
	func(&c, 30, 2, 0);
	func(&c, 40, 3, 0);
	func(&c, 50, 1, 0);
	func(&c, 60, 3, 0);
	put_trace(dir, &c, 1);

	expect_output("stat: function tracer has hits only", dir, &stat,
		STAT_HEADER
		"  plain                                    3    -               -               -               -\n"
		"  operator,(a, b)                          2    -               -               -               -\n"
		"  say \"hi\"                                 1    -               -               -               -\n"
		"# program exited with status 0\n");
	expect_output("csv: quoting and empty time fields", dir, &csv,
		"function,hits,total_ns,self_ns,avg_ns\n"
		"plain,3,,,\n"
		"\"operator,(a, b)\",2,,,\n"
		"\"say \"\"hi\"\"\",1,,,\n");
}

/* ---- damaged input ---- */

static const char *make_error_dir(const char *name, const char *info,
				  const char *funcs, const struct ft_file_header *h)
{
	const char *dir = new_dir(name);
	FILE *f;

	if (info)
		put_file(dir, "info", info);
	if (funcs)
		put_file(dir, "funcs-12", funcs);
	if (h) {
		f = fopen(path_of(dir, "trace.dat"), "w");
		fwrite(h, sizeof(*h), 1, f);
		fclose(f);
	}
	return dir;
}

static void test_errors(void)
{
	static const char funcs[] = "module 0 0x0 0x400000 0x500000 /x\nfunc 1 0x401000 0 main\n";
	struct ft_file_header good = { .version = FT_VERSION, .word_order = 0x01020304 };
	struct ft_file_header bad_magic = good, bad_version = good, swapped = good;
	const char *info = INFO("function_graph", "");
	char missing[PATH_MAX + 16];
	struct chunk c;
	const char *dir;

	memcpy(good.magic, FT_FILE_MAGIC, 8);
	memcpy(bad_version.magic, FT_FILE_MAGIC, 8);
	memcpy(swapped.magic, FT_FILE_MAGIC, 8);
	memcpy(bad_magic.magic, "NOTFNTR\x01", 8);
	bad_version.version = FT_VERSION + 1;
	swapped.word_order = 0x04030201;

	snprintf(missing, sizeof(missing), "%s/nope", base);
	expect_error("error: no such directory", missing, "No such file or directory");
	expect_error("error: no info", make_error_dir("e-noinfo", NULL, funcs, &good),
		     "/info: No such file");
	expect_error("error: not a data directory",
		     make_error_dir("e-nokey", "command: x\n", funcs, &good),
		     "not an fntrace data directory");
	expect_error("error: bad info line",
		     make_error_dir("e-badinfo", INFO("function_graph", "pid: many\n"),
				    funcs, &good), "info:5: bad value for pid");
	expect_error("error: unknown tracer",
		     make_error_dir("e-tracer", INFO("irqsoff", ""), funcs, &good),
		     "bad value for tracer");
	expect_error("error: malformed funcs",
		     make_error_dir("e-funcs", info, "module 0 0x0 0x1 0x2 /x\nfunc one\n", &good),
		     "funcs-12:2: expected");
	expect_error("error: no trace.dat",
		     make_error_dir("e-notrace", info, funcs, NULL), "trace.dat: No such file");
	expect_error("error: bad magic",
		     make_error_dir("e-magic", info, funcs, &bad_magic), "bad magic");
	expect_error("error: bad version",
		     make_error_dir("e-version", info, funcs, &bad_version), "version 2");
	expect_error("error: other byte order",
		     make_error_dir("e-order", info, funcs, &swapped), "other byte order");

	dir = make_error_dir("e-nofuncs", info, funcs, NULL);
	chunk_start(&c, 77, 77, 0, 0, 0, "x");
	entry(&c, 1, 1);
	put_trace(dir, &c, 1);
	expect_error("error: events of a pid with no funcs file", dir, "events of pid 77 (program 0) but no funcs file");
}

/* A word that is no event ends its chunk; the report goes on, and warns. */
static void test_undecodable_chunk(void)
{
	const char *dir = new_dir("baddata");
	struct result r;
	struct chunk c;

	put_file(dir, "info", INFO("function_graph", "exit: status 0\n"));
	put_file(dir, "funcs-12", "func 1 0x401000 0 main\n");
	chunk_start(&c, 12, 12, 0, 0, 0, "demo");
	entry(&c, 0, 1);
	put(&c, ft_long_word(0x3f, 0));		/* no such long type */
	exit_plain(&c, 10);
	put_trace(dir, &c, 1);
	r = run(dir, NULL);
	if (r.status == 0 && strstr(r.out, "|  main() {\n# program exited") &&
	    strstr(r.err, "warning: ") && strstr(r.err, "1 chunk end"))
		pass("undecodable word: chunk cut, warning");
	else
		fail("undecodable word: chunk cut, warning", r.err);
	free_result(&r);
}

/* A recorder killed mid-write leaves half a chunk: keep the whole words. */
static void test_truncated_file(void)
{
	const char *dir = new_dir("truncated");
	struct result r;
	struct chunk c;
	struct stat st;

	put_file(dir, "info", INFO("function_graph", "exit: status 0\n"));
	put_file(dir, "funcs-12", "func 1 0x401000 0 main\nfunc 2 0x401010 0 leaf\n");
	chunk_start(&c, 12, 12, 0, 0, 0, "demo");
	entry(&c, 0, 1);
	entry(&c, 10, 2);
	exit_plain(&c, 20);
	exit_plain(&c, 30);
	put_trace(dir, &c, 1);
	stat(path_of(dir, "trace.dat"), &st);
	if (truncate(path_of(dir, "trace.dat"), st.st_size - 3)) {
		fail("truncated trace.dat", "cannot truncate");
		return;
	}
	r = run(dir, NULL);
	if (r.status == 0 && strstr(r.out, "|    leaf();\n# program exited") &&
	    strstr(r.err, "ends inside a chunk"))
		pass("truncated trace.dat: whole events kept, warning");
	else
		fail("truncated trace.dat: whole events kept, warning", r.err);
	free_result(&r);
}

static void test_clock(void)
{
	struct trace_data td = { .info = {
		.has_clock = 1, .clock_t0 = 1000, .clock_n0 = 5000,
		.clock_t1 = 3000, .clock_n1 = 6000 } };

	if (tr_ticks_to_ns(&td, 3000) == 6000 && tr_ticks_to_ns(&td, 0) == 4500 &&
	    tr_ticks_to_ns(&td, 1000000000000000ull) == 500000000004500ull)
		pass("clock: ticks to ns, before T0 and without overflow");
	else
		fail("clock: ticks to ns, before T0 and without overflow", "wrong ns");
}

/* ---- the command line ---- */

static int run_cmd(int argc, char **argv, char **out)
{
	FILE *f = tmpfile(), *null = fopen("/dev/null", "w");
	int saved_out = dup(1), saved_err = dup(2), status;

	fflush(stdout);
	fflush(stderr);
	dup2(fileno(f), 1);
	dup2(fileno(null), 2);
	status = cmd_report(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	*out = read_all(f);
	fclose(f);
	fclose(null);
	return status;
}

static void test_command_line(const char *threads_dir)
{
	char dir[PATH_MAX];
	char *help[] = { "report", "--help", NULL };
	char *bogus[] = { "report", "--bogus", NULL };
	char *bad_tid[] = { "report", "--tid", "x", NULL };
	char *extra[] = { "report", "-i", dir, "more", NULL };
	char *tids[] = { "report", "-i", dir, "--tid", "31", "--tid", "32", "--stat", NULL };
	char *out;
	int status, status2, status3, empty;

	snprintf(dir, sizeof(dir), "%s", threads_dir);
	status = run_cmd(2, help, &out);
	if (status == 0 && !strncmp(out, "usage: fntrace report", 21))
		pass("cli: --help on stdout, status 0");
	else
		fail("cli: --help on stdout, status 0", out);
	free(out);
	status = run_cmd(2, bogus, &out);
	empty = !out[0];
	free(out);
	status2 = run_cmd(3, bad_tid, &out);
	free(out);
	status3 = run_cmd(4, extra, &out);
	free(out);
	if (status == 2 && empty && status2 == 2 && status3 == 2)
		pass("cli: bad options give status 2, usage on stderr only");
	else
		fail("cli: bad options give status 2, usage on stderr only", "wrong status");
	status = run_cmd(8, tids, &out);
	if (status == 0 && strstr(out, "  work ") && strstr(out, "  io_loop ") &&
	    !strstr(out, "  main "))
		pass("cli: -i, repeated --tid and --stat");
	else
		fail("cli: -i, repeated --tid and --stat", out);
	free(out);
}

int main(void)
{
	if (fixture_begin("report"))
		return 1;
	test_graph_durations();
	test_graph_retval_unwind();
	test_graph_threads();
	test_graph_loss_reentered();
	test_function_tracer();
	test_stack_traces();
	test_stat();
	test_function_stat();
	test_errors();
	test_undecodable_chunk();
	test_truncated_file();
	test_clock();
	test_command_line(make_threads_dir());
	return fixture_end();
}
