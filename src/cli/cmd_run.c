// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace run -- PROG ARGS: become PROG, with the runtime loaded and its
 * control endpoint open, tracing nothing until told to through
 * `fntrace ctl`.  Its pid (ours: we exec it) goes to stderr first.
 */
#include "cli.h"
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
	"      --trigger=FUNC:COMMAND[:COUNT]\n"
	"               a function trigger from the start (repeatable), as\n"
	"               written to set_ftrace_filter: COMMAND traceoff, traceon\n"
	"               or stacktrace, COUNT the times it fires (default: every\n"
	"               call); only FUNC's site is on\n"
	"  -h, --help   this text\n\n"
	"example: fntrace run -- xz -T2 -k big.tar &\n"
	"         fntrace ctl $! current_tracer function\n"
	"         fntrace run --trigger=abort_request:stacktrace -- ./server &\n"
	"         fntrace ctl $! trace      (the stacks abort_request was called from)\n\n"
	CLI_EXIT_HELP_PROGRAM;

/* The options before PROG (`run ./prog -h` runs prog -h); PROG's index
 * in argv, 0 after --help, -1 after a usage error. */
static int parse_options(int argc, char **argv, char **triggers)
{
	static const struct option opts[] = {
		{ "trigger", required_argument, NULL, 'T' },
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
		if (c == '?' || cli_add_trigger(triggers, optarg))
			return -1;
	}
	if (optind >= argc) {
		cli_usage_error("no program to run");
		return -1;
	}
	return optind;
}

/* Where PROG's runtime finds its triggers. */
static int triggers_env(const char *triggers)
{
	return triggers ? setenv("FNTRACE_TRIGGERS", triggers, 1) : unsetenv("FNTRACE_TRIGGERS");
}

int cmd_run(int argc, char **argv)
{
	struct cli_target target;
	char *lib, *path, *triggers = NULL;
	int first = parse_options(argc, argv, &triggers);

	if (first <= 0) {
		free(triggers);
		return first == 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	}
	path = cli_find_program(argv[first]);
	if (!path) {
		cli_error("%s: no such program", argv[first]);
		free(triggers);
		return CLI_EXIT_FAILED;
	}
	if (probe_runtime_reachable(path) || cli_target_of(path, &target) ||
	    cli_target_prepare(&target, path) ||
	    !(lib = cli_find_runtime(&target))) {
		free(path);
		free(triggers);
		return CLI_EXIT_FAILED;
	}
	if (!cli_target_env(path, lib) && !setenv("FNTRACE_CONTROL", "1", 1) &&
	    !triggers_env(triggers)) {
		fprintf(stderr, "fntrace: %s runs as pid %d\n", path, (int)getpid());
		execv(path, argv + first);
	}
	cli_error("cannot run %s", path);
	free(lib);
	free(path);
	free(triggers);
	return CLI_EXIT_FAILED;
}
