// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace report: print a recorded trace the way the kernel prints its
 * trace file, or a per-function profile of it, showing what the options
 * select.
 */
#include "cli.h"
#include "../common/filter.h"
#include "../trace/report.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: fntrace report [-i DIR] [--stat [--sort KEYS]] [--csv] [--srcline] [--tid TID]...\n"
	"                      [-F GLOB]... [-N GLOB]... [-D N] [--min-duration TIME]\n"
	"                      [--time-range START~END] [-O [no]OPTION]...\n\n"
	"Print the trace recorded in DIR, in the layout of the kernel's trace\n"
	"file for the tracer that recorded it (function_graph or function).\n\n"
	"  -i, --input DIR   the data directory (default: fntrace.data)\n"
	"      --stat        a profile instead: per function the hits, the total,\n"
	"                    average and self time, and the variance (s^2);\n"
	"                    recorded with -e sched, of the total the time on\n"
	"                    the CPU and off it\n"
	"      --csv         the profile as CSV:\n"
	"                    function,hits,total_ns,self_ns,avg_ns (and then\n"
	"                    on_cpu_ns,off_cpu_ns with -e sched)\n"
	"      --sort KEYS   the profile's order: total, self, hits, avg (largest\n"
	"                    first), name (A to Z), comma-separated; by default\n"
	"                    total (hits for the function tracer)\n"
	"      --srcline     where each function is, from the program's debug\n"
	"                    information (-g): 'parse() { /* parse.c:42 */' in the\n"
	"                    graph, 'parse <-main /* parse.c:42 */' in a function\n"
	"                    trace, a Source column in the profile, a srcline\n"
	"                    field in the CSV\n"
	"      --tid TID     only thread TID; may be given more than once\n\n"
	"What is shown is what recording with the same -F, -N and -D would have\n"
	"recorded; the profile counts the calls shown:\n"
	"  -F, --filter GLOB   only the matching functions (repeatable), record's\n"
	"                      syntax: name, abc*, *abc, !GLOB, GLOB:mod:MODULE;\n"
	"                      in the graph they nest as they nest among\n"
	"                      themselves, their depths counted again\n"
	"  -N, --notrace GLOB  hide the matching functions, and only them: their\n"
	"                      callees show at their depth (repeatable)\n"
	"  -D, --depth N       hide frames deeper than N shown levels (0: all)\n"
	"      --min-duration TIME\n"
	"                      hide calls shorter than TIME: 500ns, 100us, 2ms,\n"
	"                      1s, or a number of ns.  A call is printed once it\n"
	"                      returns, so threads' lines come in exit order\n"
	"      --time-range START~END\n"
	"                      only calls that overlap the range, and the markers\n"
	"                      inside it.  Times as for --min-duration, after the\n"
	"                      trace's first event, or absolute seconds as the\n"
	"                      abstime column prints them (123.456789); either\n"
	"                      side may be empty (~2s, 1s~)\n"
	"Markers are never hidden but by --tid and --time-range; -D and\n"
	"--min-duration apply to function_graph traces, which have depths and\n"
	"durations.\n\n"
	"  -O, --option [no]NAME\n"
	"                    the function_graph view's columns, as the kernel's\n"
	"                    funcgraph-NAME options (repeatable): cpu, proc,\n"
	"                    duration, tail (the name after '}') and retval (if\n"
	"                    recorded with -r) are on by default, abstime (a\n"
	"                    leading timestamp) off\n"
	"  -h, --help        this text\n\n"
	CLI_EXIT_HELP;

enum { OPT_STAT = 256, OPT_CSV, OPT_TID, OPT_MIN_DURATION, OPT_TIME_RANGE, OPT_SORT, OPT_SRCLINE };

struct report_args {
	const char *dir;
	struct report_options o;
	uint32_t *tids;
	struct filter filter, notrace;
};

/* A number of levels: digits only, so "-1" is no depth. */
static int parse_depth(const char *s, unsigned *depth)
{
	unsigned long v = 0;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	v = strtoul(s, NULL, 10);
	if (v > 1u << 30)
		return -1;
	*depth = (unsigned)v;
	return 0;
}

static int add_filter(struct filter *f, const char *expr)
{
	char err[256];

	if (!filter_add(f, expr, err, sizeof(err)))
		return 0;
	cli_usage_error("bad filter: %s", err);
	return -1;
}

/* The value of an option that takes one: 0, or -1 after one line. */
static int parse_value(int c, struct report_args *a)
{
	struct report_options *o = &a->o;
	const char *what;

	switch (c) {
	case 'F':
		return add_filter(&a->filter, optarg);
	case 'N':
		return add_filter(&a->notrace, optarg);
	case 'D':
		what = "depth";
		if (!parse_depth(optarg, &o->max_depth))
			return 0;
		break;
	case OPT_MIN_DURATION:
		what = "--min-duration (500ns, 100us, 2ms, 1s)";
		if (!report_parse_duration(optarg, &o->min_duration))
			return 0;
		break;
	case OPT_TIME_RANGE:
		what = "--time-range (START~END, START before END)";
		if (!report_parse_range(optarg, &o->from, &o->to))
			return 0;
		break;
	case OPT_SORT:
		what = "--sort (total, self, hits, avg, name)";
		if (!report_parse_sort(optarg, o))
			return 0;
		break;
	case 'O':
		what = "option (abstime, cpu, proc, duration, tail, retval)";
		if (!report_parse_show(optarg, o))
			return 0;
		break;
	default:
		return -1;
	}
	cli_usage_error("bad %s: '%s'", what, optarg);
	return -1;
}

/* 0: run; 1: --help wanted; -1 after a usage error. */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "stat", no_argument, NULL, OPT_STAT },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "srcline", no_argument, NULL, OPT_SRCLINE },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "filter", required_argument, NULL, 'F' },
		{ "notrace", required_argument, NULL, 'N' },
		{ "depth", required_argument, NULL, 'D' },
		{ "min-duration", required_argument, NULL, OPT_MIN_DURATION },
		{ "time-range", required_argument, NULL, OPT_TIME_RANGE },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "option", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	optind = 0;	/* a full getopt reset: live may have parsed before us */
	while ((c = cli_getopt(argc, argv, "i:hF:N:D:O:", opts)) != -1) {
		if (c == 'h')
			return 1;
		if (c == 'i')
			a->dir = optarg;
		else if (c == OPT_STAT)
			a->o.stat = 1;
		else if (c == OPT_CSV)
			a->o.csv = 1;
		else if (c == OPT_TID && !cli_parse_tid(optarg, &a->tids[a->o.nr_tids]))
			a->o.nr_tids++;
		else if (c == OPT_SRCLINE)
			a->o.srcline = 1;
		else if (c == '?' || c == OPT_TID || parse_value(c, a))
			return -1;
	}
	if (optind == argc)
		return 0;
	cli_usage_error("unexpected argument '%s' (the recording goes with -i)", argv[optind]);
	return -1;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .dir = "fntrace.data" };
	int ret;

	a.tids = calloc(argc, sizeof(*a.tids));
	if (!a.tids) {
		cli_error("out of memory");
		return CLI_EXIT_FAILED;
	}
	a.o.tids = a.tids;
	a.o.filter = &a.filter;
	a.o.notrace = &a.notrace;
	ret = parse_args(argc, argv, &a);
	if (ret > 0)
		fputs(usage, stdout);
	if (ret == 0)
		ret = report_run(a.dir, stdout, &a.o) ? CLI_EXIT_FAILED : CLI_EXIT_OK;
	else
		ret = ret > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	filter_free(&a.filter);
	filter_free(&a.notrace);
	free(a.tids);
	return ret;
}
