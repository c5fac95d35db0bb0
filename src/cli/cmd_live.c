// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace live: record into a temporary directory, print the trace, and
 * remove the directory.  The program's exit status is passed on.
 */
#include "cli.h"
#include "../record/datadir.h"
#include "../record/record.h"
#include "../trace/report.h"

#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>

static const char usage[] =
	"usage: fntrace live [OPTIONS] [--] PROG [ARGS...]\n\n"
	"Run PROG, record its function trace and print it when PROG ends, as\n"
	"'fntrace record' then 'fntrace report' would; nothing is kept.\n\n"
	"  -t, --tracer=NAME      function_graph (default) or function\n"
	"  -F, --filter=GLOB      trace only matching functions (repeatable)\n"
	"  -N, --notrace=GLOB     never trace matching functions (repeatable)\n"
	"  -D, --depth=N          function_graph: trace N levels deep at most\n"
	"      --tracing-thresh=USEC\n"
	"                         function_graph: show only the calls that last\n"
	"                         USEC microseconds or more\n"
	"  -r, --retval           function_graph: show return values\n"
	"  -A, --args=FUNC@SPEC   function_graph: show arguments (see 'fntrace\n"
	"                         record --help')\n"
	"  -R, --return=FUNC@retval[/TYPE]\n"
	"                         function_graph: show typed return values\n"
	"  -a, --auto-args        function_graph: show every described function's\n"
	"                         arguments and return value, typed from DWARF\n"
	"      --trigger=FUNC:COMMAND[:COUNT]\n"
	"                         a function trigger (repeatable; see 'fntrace\n"
	"                         record --help')\n"
	"  -b, --buffer-size=KB   shared buffer memory (default 16384)\n"
	"      --max-size=SIZE    print only the newest SIZE of trace (K, M or G)\n"
	"  -h, --help             this text\n\n"
	"example: fntrace live -D 3 -- ./prog input\n\n"
	CLI_EXIT_HELP_PROGRAM;

/* What live refuses that record accepts: a usage error, said. */
static int refused(const struct record_options *o)
{
	if (o->pid)
		return cli_usage_error("runs a program: use 'fntrace record -p PID' "
				       "for a running one");
	if (o->output)
		return cli_usage_error("keeps nothing: use 'fntrace record -o DIR' "
				       "to keep a trace");
	if (o->overwrite)
		return cli_usage_error("--overwrite keeps snapshots: use 'fntrace record "
				       "--overwrite -o DIR'");
	if (o->kevents.groups)
		return cli_usage_error("-e: the kernel's events are not shown live yet: use "
				       "'fntrace record -e'");
	return 0;
}

static int record_and_report(struct record_options *o, char **argv)
{
	const struct report_options printing = { .stopped = cli_interrupted };
	char tmp[PATH_MAX], data[PATH_MAX + 8];
	int status;

	if (cli_make_temp_dir(tmp, sizeof(tmp), "fntrace-live"))
		return -1;
	/* Whatever happens to the output (a reader like head that stops,
	 * Ctrl-C while printing), the temporary directory goes away. */
	signal(SIGPIPE, SIG_IGN);
	cli_catch_interrupt();
	snprintf(data, sizeof(data), "%s/data", tmp);
	o->output = data;
	o->argv = argv;
	status = record_run(o);
	/* The recorder passed on the signals that came while the program
	 * ran; from now on one ends the printing, at once.  No recording
	 * (nothing was traced, said): the program's status stands, as
	 * record passes it on. */
	cli_catch_interrupt();
	if (status >= 0 && access(data, F_OK) == 0 &&
	    report_run(data, stdout, &printing) && !cli_interrupted())
		status = -1;
	if (cli_interrupted())
		cli_drop_untaken_output();
	if (datadir_remove(data) || datadir_remove(tmp))
		cli_error("could not remove %s", tmp);
	return status;
}

int cmd_live(int argc, char **argv)
{
	struct record_options o = {
		.tracer = "function_graph",
		.buffer_kb = 16384,
		.transient = 1,
	};
	int first = record_parse(argc, argv, &o, usage), status;

	if (first <= 0 || (status = refused(&o))) {
		record_options_free(&o);
		return first == 0 ? CLI_EXIT_OK : first < 0 ? CLI_EXIT_USAGE : status;
	}
	status = record_and_report(&o, argv + first);
	record_options_free(&o);
	return status < 0 ? CLI_EXIT_FAILED : record_exit_code(status);
}
