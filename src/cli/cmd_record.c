// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace record: the options, checked before anything is started.
 */
#include "cli.h"
#include "../record/record.h"
#include "../common/argspec.h"
#include "../common/filter.h"
#include "../common/shm.h"
#include "../common/signame.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: fntrace record [OPTIONS] [--] PROG [ARGS...]\n"
	"       fntrace record [OPTIONS] -p PID [-d SECONDS]\n"
	"       fntrace record --host=HOST:PORT [OPTIONS] [--] PROG [ARGS...]\n\n"
	"Run PROG with the fntrace runtime and record its function trace into\n"
	"a data directory; PROG's exit status is passed on.  With -p, record\n"
	"the running process PID (started with 'fntrace run', or attached\n"
	"with 'fntrace attach') for SECONDS, or until Ctrl-C or its end.\n"
	"With --overwrite, keep only the newest events in memory and write a\n"
	"data directory DIR/snapshot.N for each snapshot taken, and one for\n"
	"the last window when PROG ends (or the recording stops).\n"
	"With --host, send the recording as it is made to 'fntrace listen'\n"
	"on HOST, which writes the data directory there.\n\n"
	"  -t, --tracer=NAME      function_graph (default) or function\n"
	"  -F, --filter=GLOB      trace only matching functions (repeatable);\n"
	"                         set_ftrace_filter syntax: name, abc*, *abc,\n"
	"                         *abc*, a glob, !GLOB to remove, GLOB:mod:MODULE\n"
	"                         a program's calls into shared libraries are\n"
	"                         traced when a filter names them: -F malloc,\n"
	"                         -F :mod:libc (x86_64; no filter: none)\n"
	"  -N, --notrace=GLOB     never trace matching functions (repeatable)\n"
	"  -D, --depth=N          function_graph: trace N levels deep at most\n"
	"      --tracing-thresh=USEC\n"
	"                         function_graph: record only the calls that last\n"
	"                         USEC microseconds or more, each whole at its\n"
	"                         return (the kernel's tracing_thresh)\n"
	"  -r, --retval           function_graph: record return values\n"
	"  -A, --args=FUNC@SPEC   function_graph: record arguments of matching\n"
	"                         functions (repeatable); SPEC: arg1, arg2/x ...\n"
	"                         (see below)\n"
	"  -R, --return=FUNC@retval[/TYPE]\n"
	"                         function_graph: record their return value as\n"
	"                         TYPE (repeatable)\n"
	"  -a, --auto-args        function_graph: record the arguments and return\n"
	"                         value of every function of PROG its DWARF\n"
	"                         describes (build it with -g), typed from it\n"
	"      --trigger=FUNC:COMMAND[:COUNT]\n"
	"                         a function trigger (repeatable), as written to\n"
	"                         set_ftrace_filter: COMMAND traceoff, traceon,\n"
	"                         stacktrace, snapshot (a snapshot just after the\n"
	"                         call), dump (the same, said on stderr), or\n"
	"                         snapshot_if_longer:USEC (a snapshot after a call\n"
	"                         that lasted USEC microseconds or more; needs\n"
	"                         function_graph), COUNT the times it fires\n"
	"                         (default: every call)\n"
	"      --snapshot-interval=MS\n"
	"                         snapshot_if_longer takes one snapshot per MS\n"
	"                         milliseconds at most (default 1000, 0: no limit);\n"
	"                         the slow calls meanwhile are counted\n"
	"  -e, --event=GROUP      also record the kernel's events of the program's\n"
	"                         threads, as trace-cmd record -e (repeatable):\n"
	"                         sched (context switches, wake-ups), syscalls\n"
	"                         (system calls; syscalls:read,write: only those),\n"
	"                         faults (user page faults); needs root or\n"
	"                         CAP_PERFMON and tracefs, else one line says so\n"
	"                         and the function trace is recorded alone\n"
	"  -b, --buffer-size=KB   shared buffer memory (default 16384)\n"
	"  -p, --pid=PID          record a running process\n"
	"  -d, --duration=SECS    with -p: stop after SECS seconds (0.5: half a second)\n"
	"      --timeout=SECS     with -p: give up on a process that does not\n"
	"                         answer a request within SECS whole seconds\n"
	"                         (default 5; more where its own threads keep\n"
	"                         every CPU busy)\n"
	"  -o, --output=DIR       data directory (default fntrace.data; an old\n"
	"                         one is kept as DIR.old)\n"
	"      --host=HOST:PORT   stream the recording to 'fntrace listen' at\n"
	"                         HOST:PORT ([ADDR]:PORT for IPv6) instead of\n"
	"                         writing DIR; the function tables go along, so\n"
	"                         HOST needs neither PROG nor its libraries; if\n"
	"                         the connection is lost, PROG runs on and the\n"
	"                         events not sent are counted\n"
	"      --max-size=SIZE    keep only the newest SIZE of trace (K, M or G;\n"
	"                         256K at least): the oldest is dropped as the\n"
	"                         recording grows, and the report says how much\n"
	"      --overwrite        flight recording (the kernel's overwrite\n"
	"                         option): the buffer keeps the newest events,\n"
	"                         nothing is written until a snapshot is taken\n"
	"                         ('fntrace ctl PID snapshot 1'); each goes to\n"
	"                         DIR/snapshot.N, read by report, info, export;\n"
	"                         a crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE,\n"
	"                         SIGABRT) makes the last one say which, where\n"
	"                         (with -p, while it records: the process's\n"
	"                         ftrace_dump_on_oops is on until then); with -e,\n"
	"                         the newest kernel events are kept in memory\n"
	"                         too (as many bytes as the buffer), each\n"
	"                         snapshot getting those of its window\n"
	"      --snapshot-signal=SIG\n"
	"                         with --overwrite: PROG getting signal SIG\n"
	"                         (USR1, USR2, HUP, QUIT ...) takes a snapshot,\n"
	"                         then its own handler runs, or the default action\n"
	"  -h, --help             this text\n\n"
	"SPEC: values separated by commas, up to 8: argN (the Nth integer or\n"
	"pointer argument, N from 1), fargN (the Nth floating-point one), each\n"
	"with an optional /TYPE: d (signed, the default), x (hex), c (char),\n"
	"p (pointer), s (string, read safely, 64 bytes at most), b (bool),\n"
	"i8 i16 i32 i64, u8 u16 u32 u64; for fargN and retval also f32, f64 (f);\n"
	"and an optional :NAME the report prints (arg1/s:text).  argN+B and\n"
	"fargN+B take a sized value B bytes into the register (a field of a\n"
	"struct passed by value: arg1+4/i32:p.y; argN/f32 reads an integer\n"
	"register's bits as a float).  Only arguments passed in registers\n"
	"(x86_64: six integer, eight floating-point; aarch64 and riscv64: eight\n"
	"of each, and a -pg function gives its return value only).\n\n"
	"example: fntrace record -F 'parse_*' -o parse.data -- ./prog input\n"
	"         fntrace record --trigger=fail_request:traceoff:1 -- ./server\n"
	"                (the trace stops at the first failed request)\n"
	"         fntrace record --tracing-thresh=1000 -- ./server\n"
	"         fntrace record -A 'parse_expr@arg1/s,arg2' -R 'parse_expr@retval'\n"
	"                -- ./prog input\n"
	"         fntrace record -e sched -e syscalls:read,write,futex -- ./server\n"
	"                (each call's system calls and context switches inside it)\n"
	"         fntrace record --max-size=512M -p 4242   (its last 512 MB)\n"
	"         fntrace record --host=workstation:7117 -- ./prog   (on the board;\n"
	"                'fntrace listen --port 7117' on the workstation)\n"
	"         fntrace record --overwrite -b 65536 -o flight -- ./server &\n"
	"         fntrace ctl $(pgrep -n server) snapshot 1   # flight/snapshot.1\n"
	"         fntrace record -p 4242 --overwrite -o flight  # till Ctrl-C\n"
	"                (if 4242 crashes meanwhile, flight/snapshot.N is its\n"
	"                last window, and says which signal, which thread)\n"
	"         fntrace record --overwrite -o slow \\\n"
	"                --trigger=handle_request:snapshot_if_longer:50000:10 \\\n"
	"                --snapshot-interval=5000 -- ./server\n"
	"                (slow/snapshot.N after each request of 50 ms or more,\n"
	"                10 at most, one per 5 s)\n"
	"         fntrace record --overwrite --snapshot-signal=USR2 -o flight -- ./server\n"
	"         kill -USR2 $(pgrep -n server)                # flight/snapshot.1\n\n"
	CLI_EXIT_HELP_PROGRAM
	"with -p: 0 done, 1 failed, 2 usage error\n";

static int check_filter(char **list, const char *expr)
{
	struct filter f = { 0 };
	char err[256];
	int ret = filter_add(&f, expr, err, sizeof(err));

	filter_free(&f);
	if (ret) {
		cli_usage_error("bad filter: %s", err);
		return -1;
	}
	return cli_append_line(list, expr);
}

/* -A takes argument values, -R the return value. */
static int check_args(char **list, const char *spec, int of_return)
{
	struct arg_spec s;
	char err[256];
	int wrong;

	if (argspec_parse(&s, spec, err, sizeof(err))) {
		cli_usage_error("%s", err);
		return -1;
	}
	wrong = of_return ? s.nr_args > 0 : s.nr_args < s.nr_items;
	argspec_free(&s);
	if (wrong) {
		cli_usage_error(of_return ? "-R '%s': only retval[/TYPE] (arguments go with -A)"
				    : "-A '%s': only argN and fargN (the return value goes with -R)",
			  spec);
		return -1;
	}
	return cli_append_line(list, spec);
}

static int parse_uint(const char *s, const char *what, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v > 1u << 30) {
		cli_usage_error("bad %s: '%s'", what, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* -b KB: the shared memory holds at least a chunk per CPU (shm.c makes
 * four at the least); 0 is a mistake, not a request for the default. */
static int check_buffer_size(unsigned kb)
{
	if (kb)
		return 0;
	cli_usage_error("bad buffer size: 0 (KB, e.g. 16384)");
	return -1;
}

/* -d SECS: seconds, fractions too (0.5); at least a microsecond. */
static int parse_seconds(const char *s, uint64_t *ns)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end || !(v >= 1e-6 && v <= 1e9)) {
		cli_usage_error("bad duration: '%s' (seconds, e.g. 2 or 0.5)", s);
		return -1;
	}
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

/* --max-size=SIZE: the recording keeps at least the largest chunk a
 * buffer may have (a segment of trace.dat holds one whole). */
static int parse_max_size(const char *s, uint64_t *bytes)
{
	if (cli_size_value(s, bytes)) {
		cli_usage_error("bad --max-size: '%s' (bytes, or with K, M or G: 512M)", s);
		return -1;
	}
	if (*bytes < FT_CHUNK_MAX) {
		cli_usage_error("--max-size=%s: smaller than one chunk of the buffer (%uK)", s,
				FT_CHUNK_MAX / 1024);
		return -1;
	}
	return 0;
}

/* -e GROUP[:NAMES]: kevents/request.c. */
static int parse_event(const char *arg, struct record_options *o)
{
	char err[256];

	if (kev_request_add(&o->kevents, arg, err, sizeof(err)) == 0)
		return 0;
	cli_usage_error("%s", err);
	return -1;
}

/* --host: what it cannot go with, and why. */
static int check_host(const struct record_options *o)
{
	const char *with = NULL, *why = NULL;

	if (o->transient)
		with = "live", why = "live prints the trace here";
	else if (o->output_given)
		with = "-o", why = "the listener names the directory: 'fntrace listen -o DIR'";
	else if (o->max_size)
		with = "--max-size", why = "the listener keeps the whole stream";
	else if (o->overwrite)
		with = "--overwrite", why = "a flight recording's snapshots are not streamed";
	else if (o->kevents.groups)
		with = "-e", why = "the kernel's events are not streamed yet";
	if (!with)
		return 0;
	cli_usage_error("--host: not with %s (%s)", with, why);
	return -1;
}

/* Long options without a letter of their own. */
enum { OPT_TRACING_THRESH = 256, OPT_MAX_SIZE, OPT_OVERWRITE, OPT_TRIGGER,
       OPT_SNAPSHOT_INTERVAL, OPT_SNAPSHOT_SIGNAL, OPT_HOST, OPT_TIMEOUT };

/* --snapshot-signal=SIG: by name, which the runtime looks up in its own
 * arch's numbering (signame.h). */
static int parse_snapshot_signal(const char *name, struct record_options *o)
{
	if (!ft_snapshot_signal_number(name)) {
		cli_usage_error("bad --snapshot-signal: '%s' (one of %s)", name,
				ft_snapshot_signal_names());
		return -1;
	}
	o->snapshot_signal = name;
	return 0;
}

static int parse_option(int c, struct record_options *o)
{
	switch (c) {
	case OPT_TRACING_THRESH:
		return cli_parse_thresh(optarg, &o->thresh);
	case OPT_SNAPSHOT_INTERVAL:
		o->snap_interval = optarg;
		return cli_parse_interval(optarg);
	case 't':
		if (strcmp(optarg, "function") && strcmp(optarg, "function_graph")) {
			cli_usage_error("no such tracer: '%s' (function, function_graph)", optarg);
			return -1;
		}
		o->tracer = optarg;
		return 0;
	case 'F':
		return check_filter(&o->filter, optarg);
	case 'N':
		return check_filter(&o->notrace, optarg);
	case 'D':
		return parse_uint(optarg, "depth", &o->depth);
	case 'b':
		return parse_uint(optarg, "buffer size", &o->buffer_kb) ||
		       check_buffer_size(o->buffer_kb);
	case 'r':
		o->retval = 1;
		return 0;
	case OPT_TRIGGER:
		return cli_add_trigger(&o->triggers, optarg) ? -1 : 0;
	case 'A':
		return check_args(&o->args, optarg, 0);
	case 'R':
		return check_args(&o->args, optarg, 1);
	case 'a':
		o->auto_args = 1;
		return 0;
	case 'e':
		return parse_event(optarg, o);
	case 'o':
		o->output = optarg;
		o->output_given = 1;
		return 0;
	case 'p':
		return cli_parse_pid(optarg, &o->pid);
	case 'd':
		return parse_seconds(optarg, &o->duration_ns);
	case OPT_MAX_SIZE:
		return parse_max_size(optarg, &o->max_size);
	case OPT_OVERWRITE:
		o->overwrite = 1;
		return 0;
	case OPT_SNAPSHOT_SIGNAL:
		return parse_snapshot_signal(optarg, o);
	case OPT_HOST:
		o->host = optarg;
		return 0;
	case OPT_TIMEOUT:
		return cli_parse_seconds(optarg, &o->answer_timeout);
	}
	return -1;
}

int record_parse(int argc, char **argv, struct record_options *o, const char *text)
{
	static const struct option opts[] = {
		{ "tracer", required_argument, NULL, 't' },
		{ "filter", required_argument, NULL, 'F' },
		{ "notrace", required_argument, NULL, 'N' },
		{ "depth", required_argument, NULL, 'D' },
		{ "tracing-thresh", required_argument, NULL, OPT_TRACING_THRESH },
		{ "snapshot-interval", required_argument, NULL, OPT_SNAPSHOT_INTERVAL },
		{ "retval", no_argument, NULL, 'r' },
		{ "args", required_argument, NULL, 'A' },
		{ "return", required_argument, NULL, 'R' },
		{ "auto-args", no_argument, NULL, 'a' },
		{ "trigger", required_argument, NULL, OPT_TRIGGER },
		{ "event", required_argument, NULL, 'e' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "duration", required_argument, NULL, 'd' },
		{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
		{ "overwrite", no_argument, NULL, OPT_OVERWRITE },
		{ "snapshot-signal", required_argument, NULL, OPT_SNAPSHOT_SIGNAL },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	optind = 1;
	while ((c = cli_getopt(argc, argv, "t:F:N:D:rA:R:ae:b:o:p:d:h", opts)) != -1) {
		if (c == 'h') {
			fputs(text, stdout);
			return 0;
		}
		if (c == '?' || parse_option(c, o))
			return -1;
	}
	if (o->pid && optind < argc) {
		cli_usage_error("-p records a running process: no program to run too");
		return -1;
	}
	if (!o->pid && optind >= argc) {
		cli_usage_error("no program to run");
		return -1;
	}
	if (o->answer_timeout && !o->pid) {
		cli_usage_error("--timeout is for -p: a program fntrace runs is not asked");
		return -1;
	}
	if ((o->args || o->auto_args) && strcmp(o->tracer, "function_graph")) {
		cli_usage_error("-A, -R and --auto-args need the function_graph tracer");
		return -1;
	}
	if (o->snapshot_signal && (!o->overwrite || o->pid)) {
		cli_usage_error("--snapshot-signal needs --overwrite and a program to run");
		return -1;
	}
	/* The kevents file has no cap: --max-size would not hold.  (A
	 * flight recording's snapshots are capped by the memory that kept
	 * them, but not by --max-size either.) */
	if (o->kevents.groups && o->max_size) {
		cli_usage_error("-e is not recorded with --max-size yet (the kernel's events "
				"are not capped)");
		return -1;
	}
	if (o->host && check_host(o))
		return -1;
	if (o->thresh && strcmp(o->tracer, "function_graph")) {
		cli_usage_error("--tracing-thresh needs the function_graph tracer");
		return -1;
	}
	/* A call is written whole at its exit: its entry's values have no
	 * event to go with, nor has a return value. */
	if (o->thresh && (o->args || o->auto_args || o->retval)) {
		cli_usage_error("--tracing-thresh records calls without their arguments "
				"or return values (-A, -R, -a, -r)");
		return -1;
	}
	return optind;
}

void record_options_free(struct record_options *o)
{
	free(o->filter);
	free(o->notrace);
	free(o->args);
	free(o->triggers);
	o->filter = o->notrace = o->args = o->triggers = NULL;
}

int cmd_record(int argc, char **argv)
{
	struct record_options o = {
		.tracer = "function_graph",
		.output = "fntrace.data",
		.buffer_kb = 16384,
	};
	int first = record_parse(argc, argv, &o, usage), status;

	if (first <= 0) {
		record_options_free(&o);
		return first == 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	}
	if (o.pid) {
		status = record_attach(&o) ? CLI_EXIT_FAILED : CLI_EXIT_OK;
		record_options_free(&o);
		return status;
	}
	o.argv = argv + first;
	status = record_run(&o);
	record_options_free(&o);
	return status < 0 ? CLI_EXIT_FAILED : record_exit_code(status);
}
