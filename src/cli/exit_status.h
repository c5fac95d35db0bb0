/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fntrace's exit status means, the same for every command.  The
 * user reads it in 'fntrace --help' (usage.c prints this table) and in
 * README.md, *Exit status*; each command's --help repeats the line that
 * applies to it (CLI_EXIT_HELP, CLI_EXIT_HELP_PROGRAM).
 */
#ifndef FNTRACE_EXIT_STATUS_H
#define FNTRACE_EXIT_STATUS_H

enum cli_exit {
	CLI_EXIT_OK = 0,	/* done */
	CLI_EXIT_FAILED = 1,	/* not done, said in a line: no such process or
				 * endpoint, refused, a recording that cannot be
				 * read or written, no program to record */
	CLI_EXIT_USAGE = 2,	/* the command line is wrong, said in a line:
				 * nothing was done */
};

/*
 * run, record, live, cc and c++ pass on the status of the program they
 * run (the compiler), 128+N if signal N killed it, once it has started:
 * its own 1 or 2 look like fntrace's.  fntrace's own come with a line on
 * stderr that starts with "fntrace", and the program never ran; a
 * recording keeps how the program ended (fntrace info: program ended).
 */
#define CLI_EXIT_SIGNAL_BASE 128

#define CLI_EXIT_HELP \
	"exit status: 0 done, 1 failed, 2 usage error (see 'fntrace --help')\n"
#define CLI_EXIT_HELP_PROGRAM \
	"exit status: PROG's own (128+N if signal N killed it); fntrace's own\n" \
	"failure 1, a usage error 2, said in a line (see 'fntrace --help')\n"

#endif
