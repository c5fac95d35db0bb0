// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace: dynamic function tracing for user-space programs.
 * Dispatches to one function per subcommand, like git or perf.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The Makefile's VERSION: debian/changelog's first entry. */
#ifndef FNTRACE_VERSION
#define FNTRACE_VERSION "unknown"
#endif

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "record", cmd_record, "run a program and record its function trace" },
	{ "report", cmd_report, "print a recorded trace, or its profile" },
	{ "info", cmd_info, "say what a recording holds: run, processes, threads, events" },
	{ "export", cmd_export, "write a recorded trace for other tools: Perfetto, flame graphs" },
	{ "listen", cmd_listen, "take the recordings record --host sends from other machines" },
	{ "live", cmd_live, "record a program and print its trace at once" },
	{ "list", cmd_list, "list the traceable functions of a program" },
	{ "run", cmd_run, "start a program, traceable but not traced, and say its pid" },
	{ "ctl", cmd_ctl, "read or write a control file of a running program" },
	{ "attach", cmd_attach, "load the runtime into a running program" },
	{ "detach", cmd_detach, "restore a running program's call sites and let it go" },
	{ "recordmcount", cmd_recordmcount, "record the mcount calls of objects in __mcount_loc" },
	{ "cc", cmd_cc, "compile and link a program for tracing: make CC=\"fntrace cc\"" },
	{ "c++", cmd_cxx, "the same for C++: make CXX=\"fntrace c++\"" },
};

static void usage(void)
{
	printf("usage: fntrace COMMAND [ARGS]\n\n"
	       "Dynamic function tracing for user-space programs: the kernel's\n"
	       "ftrace, for programs compiled with -pg, -pg -mfentry or\n"
	       "-fpatchable-function-entry=5.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		printf("  %-13s %s\n", commands[i].name, commands[i].summary);
	printf("\n  -h, --help     this text\n"
	       "  -V, --version  the version of fntrace\n"
	       "\n'fntrace COMMAND --help' describes one command.\n\n");
	cli_print_exit_table(stdout);
}

/*
 * Every command's standard output, checked once at the end: a report
 * into a full disk or /dev/full must not end as if all was written.  A
 * reader that went away (EPIPE: `| head`) is the user's choice, not news.
 */
static int output_written(int status)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	if (errno != EPIPE)
		cli_error("cannot write the output: %s", strerror(errno ? errno : EIO));
	return status ? status : CLI_EXIT_FAILED;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("no command given");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage();
		return output_written(CLI_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("fntrace %s\n", FNTRACE_VERSION);
		return output_written(CLI_EXIT_OK);
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		cli_set_command(commands[i].name);
		return output_written(commands[i].run(argc - 1, argv + 1));
	}
	if (argv[1][0] == '-')
		return cli_usage_error("unknown option '%.*s'", (int)strcspn(argv[1], "="),
				       argv[1]);
	return cli_usage_error("'%s' is not a command", argv[1]);
}
