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
	"usage: fntrace run [--] PROG [ARGS...]\n\n"
	"Start PROG with the fntrace runtime loaded and tracing off, and print\n"
	"its pid on stderr.  Every call site is a nop: PROG runs at full speed\n"
	"until 'fntrace ctl PID ...' or 'fntrace record -p PID' turns tracing on.\n\n"
	"  -h, --help   this text\n\n"
	"example: fntrace run -- xz -T2 -k big.tar &\n"
	"         fntrace ctl $! current_tracer function\n\n"
	CLI_EXIT_HELP_PROGRAM;

int cmd_run(int argc, char **argv)
{
	struct cli_target target;
	char *lib, *path;

	/* Only before PROG: `run ./prog -h` runs prog -h. */
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(usage, stdout);
		return CLI_EXIT_OK;
	}
	/* A program whose name starts with '-' comes after "--". */
	if (argc > 1 && argv[1][0] == '-' && strcmp(argv[1], "--"))
		return cli_usage_error("unknown option '%.*s'", (int)strcspn(argv[1], "="),
				       argv[1]);
	optind = 1 + (argc > 1 && !strcmp(argv[1], "--"));
	if (optind >= argc)
		return cli_usage_error("no program to run");
	path = cli_find_program(argv[optind]);
	if (!path) {
		cli_error("%s: no such program", argv[optind]);
		return CLI_EXIT_FAILED;
	}
	if (probe_runtime_reachable(path) || cli_target_of(path, &target) ||
	    cli_target_prepare(&target, path) ||
	    !(lib = cli_find_runtime(&target))) {
		free(path);
		return CLI_EXIT_FAILED;
	}
	if (!cli_target_env(path, lib) && !setenv("FNTRACE_CONTROL", "1", 1)) {
		fprintf(stderr, "fntrace: %s runs as pid %d\n", path, (int)getpid());
		execv(path, argv + optind);
	}
	cli_error("cannot run %s", path);
	free(lib);
	free(path);
	return CLI_EXIT_FAILED;
}
