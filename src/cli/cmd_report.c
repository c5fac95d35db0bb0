// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace report: print a recorded trace the way the kernel prints its
 * trace file, or a per-function profile of it.
 */
#include "cli.h"
#include "../trace/report.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char usage[] =
	"usage: fntrace report [-i DIR] [--stat] [--csv] [--srcline] [--tid TID]...\n\n"
	"Print the trace recorded in DIR, in the layout of the kernel's trace\n"
	"file for the tracer that recorded it (function_graph or function).\n\n"
	"  -i, --input DIR   the data directory (default: fntrace.data)\n"
	"      --stat        a profile instead: per function the hits, the total,\n"
	"                    average and self time, and the variance (s^2)\n"
	"      --csv         the profile as CSV:\n"
	"                    function,hits,total_ns,self_ns,avg_ns\n"
	"      --srcline     where each function is, from the program's debug\n"
	"                    information (-g): 'parse() { /* parse.c:42 */' in the\n"
	"                    graph, 'parse <-main /* parse.c:42 */' in a function\n"
	"                    trace, a Source column in the profile, a srcline\n"
	"                    field in the CSV\n"
	"      --tid TID     only thread TID; may be given more than once\n"
	"  -h, --help        this text\n";

enum { OPT_STAT = 256, OPT_CSV, OPT_TID, OPT_SRCLINE };

/* 0: run; 1: --help was printed; 2: a usage error. */
static int parse_args(int argc, char **argv, const char **dir,
		      struct report_options *o, uint32_t *tids)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "stat", no_argument, NULL, OPT_STAT },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "srcline", no_argument, NULL, OPT_SRCLINE },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	optind = 0;	/* a full getopt reset: live may have parsed before us */
	while ((c = getopt_long(argc, argv, "+i:h", opts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == 'i')
			*dir = optarg;
		else if (c == OPT_STAT)
			o->stat = 1;
		else if (c == OPT_CSV)
			o->csv = 1;
		else if (c == OPT_SRCLINE)
			o->srcline = 1;
		else if (c == OPT_TID && !cli_parse_tid(optarg, &tids[o->nr_tids]))
			o->nr_tids++;
		else
			return 2;
	}
	return optind == argc ? 0 : 2;
}

int cmd_report(int argc, char **argv)
{
	struct report_options o = { 0 };
	const char *dir = "fntrace.data";
	uint32_t *tids = calloc(argc, sizeof(*tids));
	int ret;

	if (!tids) {
		cli_error("out of memory");
		return 1;
	}
	o.tids = tids;
	ret = parse_args(argc, argv, &dir, &o, tids);
	if (ret == 1) {
		fputs(usage, stdout);
		ret = 0;
	} else if (ret == 2) {
		fputs(usage, stderr);
	} else {
		ret = report_run(dir, stdout, &o);
	}
	free(tids);
	return ret;
}
