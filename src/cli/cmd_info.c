// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace info: what a recording holds, as a summary.
 */
#include "cli.h"
#include "../trace/info.h"

#include <getopt.h>
#include <stdio.h>

static const char usage[] =
	"usage: fntrace info [-i DIR]\n\n"
	"Say what the data directory DIR holds: the command, the tracer and\n"
	"what it was asked to trace (filters, depth, return values), when and\n"
	"for how long, how the program ended, trace.dat's size, the events,\n"
	"calls and lost events of every thread, and whether DIR was sealed.\n"
	"Calls are function entries in a function_graph trace and hits in a\n"
	"function trace: the Hit column of 'fntrace report --stat'.\n\n"
	"  -i, --input DIR   the data directory (default: fntrace.data)\n"
	"  -h, --help        this text\n\n"
	CLI_EXIT_HELP;

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *dir = "fntrace.data";
	int c;

	optind = 0;
	while ((c = cli_getopt(argc, argv, "i:h", opts)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		}
		if (c != 'i')
			return CLI_EXIT_USAGE;
		dir = optarg;
	}
	if (optind != argc)
		return cli_usage_error("unexpected argument '%s' (the recording goes with -i)",
				       argv[optind]);
	return info_run(dir, stdout) ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}
