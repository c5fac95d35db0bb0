// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace run -- PROG ARGS: become PROG, with the runtime loaded and its
 * control endpoint open, tracing nothing until told to through
 * `fntrace ctl`.  Its pid (ours: we exec it) goes to stderr first.
 * With --dump-on-oops, a keeper that is not PROG's child holds its ring,
 * so that a crash leaves a snapshot (../record/keeper.c).
 */
#include "cli.h"
#include "../record/keeper.h"
#include "../target/probe.h"
#include "../target/target.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
	"usage: fntrace run [OPTIONS] [--] PROG [ARGS...]\n\n"
	"Start PROG with the fntrace runtime loaded and tracing off, and print\n"
	"its pid on stderr.  Every call site is a nop: PROG runs at full speed\n"
	"until 'fntrace ctl PID ...' or 'fntrace record -p PID' turns tracing on.\n\n"
	"      --tracing-thresh=USEC\n"
	"               function_graph, once switched on: keep only the calls\n"
	"               that last USEC microseconds or more, each whole at its\n"
	"               return (the tracing_thresh file, set from the start)\n"
	"      --trigger=FUNC:COMMAND[:COUNT]\n"
	"               a function trigger from the start (repeatable), as\n"
	"               written to set_ftrace_filter: COMMAND traceoff, traceon,\n"
	"               stacktrace, snapshot, dump or snapshot_if_longer:USEC\n"
	"               (fntrace record --help says what each does), COUNT the\n"
	"               times it fires (default: every call); only FUNC's site\n"
	"               is on; FUNC may be a function of a library built\n"
	"               without call sites that PROG names (libz's crc32)\n"
	"      --snapshot-interval=MS\n"
	"               snapshot_if_longer takes one snapshot per MS ms at most\n"
	"               (default 1000; the snapshot_interval_ms file)\n"
	"      --dump-on-oops=DIR\n"
	"               the kernel's ftrace_dump_on_oops: if PROG, or a process\n"
	"               it forks, dies of SIGSEGV, SIGBUS, SIGILL, SIGFPE or\n"
	"               SIGABRT, the trace buffer's last window is saved as\n"
	"               DIR/snapshot.N (read by report, info, export), saying\n"
	"               which signal, which thread; PROG's pid, output, exit\n"
	"               status and core dump stay its own, and a PROG that ends\n"
	"               well leaves nothing.  The buffer is made at the start,\n"
	"               16 MB (buffer_size_kb cannot change it)\n"
	"  -h, --help   this text\n\n"
	"example: fntrace run -- xz -T2 -k big.tar &\n"
	"         fntrace ctl $! current_tracer function\n"
	"         fntrace run --tracing-thresh=500 -- ./server &\n"
	"         fntrace run --trigger=abort_request:stacktrace -- ./server &\n"
	"         fntrace ctl $! trace      (the stacks abort_request was called from)\n"
	"         fntrace run --trigger=handle_request:snapshot_if_longer:50000 \\\n"
	"                --snapshot-interval=10000 -- ./server &\n"
	"         fntrace ctl $! current_tracer function_graph\n"
	"         fntrace ctl $! snapshot   (the last request of 50 ms or more)\n"
	"         fntrace run --dump-on-oops=crash -- ./server &\n"
	"         fntrace ctl $! current_tracer function_graph\n"
	"                (if it crashes: fntrace report -i crash/snapshot.1)\n\n"
	CLI_EXIT_HELP_PROGRAM;

enum { OPT_TRACING_THRESH = 256, OPT_TRIGGER, OPT_SNAPSHOT_INTERVAL, OPT_DUMP_ON_OOPS };

/* What the runtime is asked for from the start. */
struct run_options {
	unsigned thresh;	/* --tracing-thresh, microseconds */
	char *triggers;		/* --trigger, one per line */
	const char *snap_interval;	/* --snapshot-interval, ms, or NULL */
	const char *dump_dir;		/* --dump-on-oops, or NULL */
};

static int parse_option(int c, struct run_options *o)
{
	if (c == OPT_TRACING_THRESH)
		return cli_parse_thresh(optarg, &o->thresh);
	if (c == OPT_TRIGGER)
		return cli_add_trigger(&o->triggers, optarg) ? -1 : 0;
	if (c == OPT_SNAPSHOT_INTERVAL) {
		o->snap_interval = optarg;
		return cli_parse_interval(optarg);
	}
	if (c == OPT_DUMP_ON_OOPS) {
		o->dump_dir = optarg;
		return 0;
	}
	return -1;
}

/* The options before PROG (`run ./prog -h` runs prog -h): the index of
 * PROG in argv, 0 after --help, -1 after a usage error (said). */
static int parse_options(int argc, char **argv, struct run_options *o)
{
	static const struct option opts[] = {
		{ "tracing-thresh", required_argument, NULL, OPT_TRACING_THRESH },
		{ "trigger", required_argument, NULL, OPT_TRIGGER },
		{ "snapshot-interval", required_argument, NULL, OPT_SNAPSHOT_INTERVAL },
		{ "dump-on-oops", required_argument, NULL, OPT_DUMP_ON_OOPS },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	optind = 1;
	while ((c = cli_getopt(argc, argv, "h", opts)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return 0;
		}
		if (c == '?' || parse_option(c, o))
			return -1;
	}
	if (optind >= argc) {
		cli_usage_error("no program to run");
		return -1;
	}
	return optind;
}

/* The runtime's environment: its library preloaded, the control endpoint
 * open, and the settings asked for. */
static int run_env(const char *path, const char *lib, const struct run_options *o)
{
	char us[16];

	snprintf(us, sizeof(us), "%u", o->thresh);
	return cli_target_env(path, lib) || setenv("FNTRACE_CONTROL", "1", 1) ||
	       cli_set_env("FNTRACE_TRACING_THRESH", o->thresh ? us : NULL) ||
	       cli_set_env("FNTRACE_TRIGGERS", o->triggers) ||
	       cli_set_env("FNTRACE_SNAPSHOT_INTERVAL", o->snap_interval);
}

/* The program planned (built without call sites), and with it each
 * library it names that defines a function a --trigger names exactly:
 * a trigger switches a detour on as a filter does. */
static void plan_for_triggers(const char *path, const char *triggers)
{
	char *names = triggers ? probe_exact_names(triggers) : NULL;

	free(probe_detours_prepare(path, names, "--trigger"));
	free(names);
}

static int run(char **argv, const struct run_options *o)
{
	struct cli_target target;
	char *lib, *path = cli_find_program(argv[0]);

	if (!path) {
		cli_error("%s: no such program", argv[0]);
		return CLI_EXIT_FAILED;
	}
	if (probe_runtime_reachable(path) || cli_target_of(path, &target) ||
	    cli_target_prepare(&target, path) ||
	    !(lib = cli_find_runtime(&target))) {
		free(path);
		return CLI_EXIT_FAILED;
	}
	plan_for_triggers(path, o->triggers);
	if (run_env(path, lib, o)) {
		cli_error("cannot run %s", path);
	} else if (!o->dump_dir || !keeper_start(o->dump_dir, argv, target.big_endian)) {
		fprintf(stderr, "fntrace: %s runs as pid %d\n", path, (int)getpid());
		execv(path, argv);
		cli_error("cannot run %s", path);
	}
	free(lib);
	free(path);
	return CLI_EXIT_FAILED;
}

int cmd_run(int argc, char **argv)
{
	struct run_options o = { 0 };
	int first = parse_options(argc, argv, &o), status;

	if (first <= 0)
		status = first == 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	else
		status = run(argv + first, &o);
	free(o.triggers);
	return status;
}
