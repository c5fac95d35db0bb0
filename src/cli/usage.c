// SPDX-License-Identifier: GPL-2.0
/*
 * Usage errors, said alike by every command: what was wrong in one line
 * that names the command, then a one-line hint, never the whole help
 * (which only --help prints, on stdout).  getopt's own messages are off:
 * cli_getopt() says them this way.  And the exit status table, as
 * 'fntrace --help' prints it.
 */
#include "cli.h"
#include "exit_status.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The command being run ("record"), named by usage errors; NULL for
 * fntrace itself. */
static const char *current_command;

void cli_set_command(const char *name)
{
	current_command = name;
}

static void say_usage_error(const char *fmt, va_list ap)
{
	const char *cmd = current_command;

	fprintf(stderr, "fntrace%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry 'fntrace%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_usage_error(fmt, ap);
	va_end(ap);
	return CLI_EXIT_USAGE;
}

/* How many long options begin with the len bytes of name; *exact set
 * to the one spelt in full, if any. */
static int long_matches(const struct option *opts, const char *name, size_t len,
			const struct option **exact)
{
	int n = 0;

	*exact = NULL;
	for (; opts && opts->name; opts++) {
		if (strncmp(opts->name, name, len))
			continue;
		n++;
		if (strlen(opts->name) == len)
			*exact = opts;
	}
	return n;
}

/* A long option getopt refused ('?': unknown, ambiguous, or given a value
 * it takes none; ':': its value missing). */
static void say_bad_long(const char *arg, int c, const struct option *opts)
{
	size_t len = strcspn(arg + 2, "=");
	const struct option *exact;
	int n = long_matches(opts, arg + 2, len, &exact);

	if (c == ':')
		cli_usage_error("option '--%.*s' needs a value", (int)len, arg + 2);
	else if (n == 0)
		cli_usage_error("unknown option '--%.*s'", (int)len, arg + 2);
	else if (n > 1 && !exact)
		cli_usage_error("ambiguous option '--%.*s'", (int)len, arg + 2);
	else
		cli_usage_error("option '--%.*s' takes no value", (int)len, arg + 2);
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *opts)
{
	/* The word getopt works on now: a cluster of short options (-rx)
	 * stays where it is until done, and a long one is a word alone. */
	const char *arg = argv[optind > 0 ? optind : 1];
	char optstring[64];
	int c;

	snprintf(optstring, sizeof(optstring), "+:%s", shortopts);
	opterr = 0;
	c = getopt_long(argc, argv, optstring, opts, NULL);
	if (c != '?' && c != ':')
		return c;
	if (arg && !strncmp(arg, "--", 2))
		say_bad_long(arg, c, opts);
	else if (c == ':')
		cli_usage_error("option '-%c' needs a value", optopt);
	else
		cli_usage_error("unknown option '-%c'", optopt);
	return '?';
}

static const struct {
	enum cli_exit code;
	const char *meaning;
} exit_table[] = {
	{ CLI_EXIT_OK, "done" },
	{ CLI_EXIT_FAILED, "failed, said in a line: no such process or control endpoint,\n"
			   "      refused, a recording that cannot be read or written,\n"
			   "      nothing to trace" },
	{ CLI_EXIT_USAGE, "a usage error, said in a line: nothing was done" },
};

void cli_print_exit_table(FILE *out)
{
	fprintf(out, "exit status:\n");
	for (size_t i = 0; i < sizeof(exit_table) / sizeof(exit_table[0]); i++)
		fprintf(out, "  %-3d %s\n", exit_table[i].code, exit_table[i].meaning);
	fprintf(out, "  run, record, live, cc and c++ pass on the status of the program\n"
		     "  they run (the compiler's), %d+N if signal N killed it.  Its 1 or 2\n"
		     "  are told from fntrace's own by fntrace's line on stderr, which\n"
		     "  starts with 'fntrace'; a recording keeps how the program ended\n"
		     "  ('fntrace info').\n", CLI_EXIT_SIGNAL_BASE);
}
