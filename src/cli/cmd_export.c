// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace export: a recorded trace for other tools (src/trace/export.h).
 */
#include "cli.h"
#include "../trace/export.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_head[] =
	"usage: fntrace export [-i DIR] [-o FILE] --format FORMAT [OPTIONS]\n\n"
	"Write the trace recorded in DIR in a format other tools read, to FILE\n"
	"(written whole or not at all) or to standard output.\n\n"
	"  -i, --input DIR      the data directory (default: fntrace.data)\n"
	"  -o, --output FILE    where to write (default: standard output)\n"
	"  -f, --format FORMAT  one of:\n";
static const char usage_tail[] =
	"      --split SIZE     chrome: cut the output into files of about SIZE\n"
	"                       bytes (k, M, G suffixes): FILE, FILE.1, ...; calls\n"
	"                       open at a cut end there and begin again in the\n"
	"                       next file (\"cat\":\"split\"), so each file nests\n"
	"      --srcline        add each function's file:line from DWARF\n"
	"      --tid TID        only thread TID; may be given more than once\n"
	"  -h, --help           this text\n\n"
	"example: fntrace export --format chrome -o trace.json\n\n"
	CLI_EXIT_HELP;

static void print_usage(void)
{
	fputs(usage_head, stdout);
	for (const struct export_format *f = export_formats; f->name; f++)
		printf("                         %-9s %s\n", f->name, f->what);
	fputs(usage_tail, stdout);
}

enum { OPT_SPLIT = 256, OPT_SRCLINE, OPT_TID };

/* No operand, a --format, options that go together: 0, or -1 after a
 * usage error. */
static int operands_checked(int argc, char **argv, const struct export_options *o)
{
	char why[256];

	if (optind != argc)
		cli_usage_error("unexpected argument '%s' (the recording goes with -i)",
				argv[optind]);
	else if (!o->format)
		cli_usage_error("no --format given");
	else if (export_check_options(o, why, sizeof(why)))
		cli_usage_error("%s", why);
	else
		return 0;
	return -1;
}

/* 0: run; 1: --help wanted; -1 after a usage error. */
static int parse_args(int argc, char **argv, struct export_options *o, uint32_t *tids)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "split", required_argument, NULL, OPT_SPLIT },
		{ "srcline", no_argument, NULL, OPT_SRCLINE },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	optind = 0;
	while ((c = cli_getopt(argc, argv, "i:o:f:h", opts)) != -1) {
		if (c == 'h')
			return 1;
		if (c == 'i')
			o->input = optarg;
		else if (c == 'o')
			o->output = optarg;
		else if (c == 'f')
			o->format = optarg;
		else if (c == OPT_SPLIT && cli_parse_size(optarg, &o->split_bytes))
			return -1;
		else if (c == OPT_SRCLINE)
			o->srcline = 1;
		else if (c == OPT_TID && cli_parse_tid(optarg, &tids[o->nr_tids++]))
			return -1;
		else if (c != OPT_SPLIT && c != OPT_TID)
			return -1;
	}
	return operands_checked(argc, argv, o);
}

/* -o FILE in the recording it reads (fntrace.data/trace.dat) would
 * replace what it is reading: refused, whatever the spelling. */
static int output_in_input(const struct export_options *o)
{
	char *out = o->output ? strdup(o->output) : NULL;
	char *out_dir = out ? realpath(dirname(out), NULL) : NULL;
	char *in_dir = out_dir ? realpath(o->input, NULL) : NULL;
	int inside = in_dir && !strcmp(out_dir, in_dir);

	if (inside)
		cli_usage_error("-o %s: inside the recording %s, which it would overwrite",
				o->output, o->input);
	free(out);
	free(out_dir);
	free(in_dir);
	return inside;
}

int cmd_export(int argc, char **argv)
{
	struct export_options o = { .input = "fntrace.data" };
	uint32_t *tids = calloc(argc, sizeof(*tids));
	int status = CLI_EXIT_USAGE;

	if (!tids) {
		cli_error("out of memory");
		return CLI_EXIT_FAILED;
	}
	o.tids = tids;
	switch (parse_args(argc, argv, &o, tids)) {
	case 0:
		if (!output_in_input(&o))
			status = export_run(&o) ? CLI_EXIT_FAILED : CLI_EXIT_OK;
		break;
	case 1:
		print_usage();
		status = CLI_EXIT_OK;
		break;
	}
	free(tids);
	return status;
}
