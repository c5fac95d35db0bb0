// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace attach PID: load the runtime into a process that was started
 * without it (src/attach/attach_load.c), and open its control endpoint.
 *
 * fntrace detach PID: every call site and GOT slot back to what the
 * compiler and the loader left, the endpoint closed; the process runs on.
 */
#include "cli.h"
#include "../attach/attach.h"
#include "../target/probe.h"
#include "../control/ctl_client.h"
#include "../target/target.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char attach_usage[] =
	"usage: fntrace attach [--timeout SECONDS] PID\n\n"
	"Load the fntrace runtime into the running process PID and open its\n"
	"control endpoint, so that 'fntrace ctl' and 'fntrace record -p' can\n"
	"trace it.  Its call sites become nops (a program built with\n"
	"'fntrace cc' or -mnop-mcount has nops already).  One thread is\n"
	"stopped for the moment the runtime takes to load; the others run on.\n"
	"That thread is one where the program's own code runs: not inside the\n"
	"dynamic loader (a process attached as it starts waits until the\n"
	"loader has started it) and, in a program built with ThreadSanitizer,\n"
	"one caught coming back from TSan's runtime.\n\n"
	"  -t, --timeout SECONDS   give up if loading takes longer (default 10):\n"
	"                          a thread may hold a lock the loader needs, or\n"
	"                          every thread wait inside the loader or TSan's\n"
	"                          runtime\n"
	"  -h, --help              this text\n\n"
	CLI_EXIT_HELP;

static const char detach_usage[] =
	"usage: fntrace detach PID\n\n"
	"Switch tracing off in PID, put every call site back as the compiler\n"
	"left it and close the control endpoint.  The process runs on.\n\n"
	"  -h, --help   this text\n\n"
	CLI_EXIT_HELP;

/* What the runtime said as it started, for the user who attached: the
 * target's stderr is not theirs, and the runtime writes nothing there. */
static void print_runtime_messages(pid_t pid)
{
	int status;
	struct ctl_conn *c = ctl_request(pid, "read", "messages", NULL, NULL, &status);
	char line[1024];

	if (!c)
		return;
	while (ctl_read_line(c, line, sizeof(line)) >= 0)
		fprintf(stderr, "%s\n", line);
	ctl_close(c);
}

/* The one operand left, a pid: 0, or -1 after a usage error. */
static int pid_operand(int argc, char **argv, pid_t *pid)
{
	if (optind == argc - 1)
		return cli_parse_pid(argv[optind], pid);
	if (optind >= argc)
		cli_usage_error("no process id given");
	else
		cli_usage_error("one process id only: '%s' is one too many", argv[optind + 1]);
	return -1;
}

/* attach's and detach's arguments (detach has no --timeout): 1 and *pid
 * (*timeout) set; 0 after --help; -1 after a usage error. */
static int parse_pid_args(int argc, char **argv, const char *usage, pid_t *pid,
			  unsigned *timeout)
{
	static const struct option attach_opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static const struct option detach_opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	optind = 1;
	while ((c = timeout ? cli_getopt(argc, argv, "t:h", attach_opts)
			    : cli_getopt(argc, argv, "h", detach_opts)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return 0;
		}
		if (c != 't' || cli_parse_seconds(optarg, timeout))
			return -1;
	}
	return pid_operand(argc, argv, pid) ? -1 : 1;
}

/* Attached, and whether there is anything to trace: a module with call
 * sites that the process loads later is traced too. */
static void say_attached(pid_t pid)
{
	if (ctl_has_call_sites(pid) == 0)
		fprintf(stderr, "fntrace: attached to process %d, which has no call sites: "
			"nothing to trace until it loads a module that has some\n", (int)pid);
	else
		fprintf(stderr, "fntrace: attached to process %d\n", (int)pid);
}

int cmd_attach(int argc, char **argv)
{
	struct cli_target host = { .host = 1 };
	unsigned timeout = 10;
	char exe[32];
	char *lib;
	pid_t pid;
	int n = parse_pid_args(argc, argv, attach_usage, &pid, &timeout), ret;

	if (n <= 0)
		return n ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	if (attach_check(pid) || !(lib = cli_find_runtime(&host)))
		return CLI_EXIT_FAILED;
	free(probe_detours_prepare(exe, NULL, NULL));
	ret = attach_load(pid, lib, timeout);
	free(lib);
	if (ret == 0) {
		print_runtime_messages(pid);
		say_attached(pid);
	}
	return ret ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}

int cmd_detach(int argc, char **argv)
{
	char traps[2048];
	pid_t pid;
	int n = parse_pid_args(argc, argv, detach_usage, &pid, NULL), status;

	if (n <= 0)
		return n ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	status = detach_traps_list(pid, traps, sizeof(traps));
	if (status)
		return status;
	status = ctl_set(pid, "detach", "1");
	if (status)
		return status;
	detach_reblock_traps(pid, traps);
	fprintf(stderr, "fntrace: detached from process %d\n", (int)pid);
	return CLI_EXIT_OK;
}
