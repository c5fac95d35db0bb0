// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace listen: the workstation's end of a remote recording.
 */
#include "cli.h"
#include "../remote/listener.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_PORT "7117"

static const char usage[] =
	"usage: fntrace listen [--port=PORT] [--bind=ADDR] [-o DIR] [--once]\n\n"
	"Take the recordings 'fntrace record --host=THIS-HOST:PORT' sends from\n"
	"other machines, several at once, each into a data directory of DIR\n"
	"named HOST-PROG-PID (HOST-PROG-PID-N if that is taken), written under a\n"
	"temporary name and put in place when its stream ends; report, info and\n"
	"export read it as they read a local one.  A stream cut short keeps what\n"
	"arrived, its info saying how it ended.  The first line on stdout says\n"
	"the port; a line on stderr for each stream.  Runs until SIGINT or\n"
	"SIGTERM.\n\n"
	"  -p, --port=PORT   the TCP port (default " DEFAULT_PORT "; 0: any free one)\n"
	"  -b, --bind=ADDR   listen on this address only (default: every\n"
	"                    address of this host, IPv4 and IPv6)\n"
	"  -o, --output=DIR  where the data directories go (default: .)\n"
	"      --once        exit once the first stream has ended: 0 if it was\n"
	"                    complete, 1 if it was cut short\n"
	"  -h, --help        this text\n\n"
	"example: fntrace listen --port=7117 -o traces        (the workstation)\n"
	"         fntrace record --host=workstation:7117 -- ./prog   (the board)\n"
	"         fntrace report -i traces/board-prog-1234\n\n"
	CLI_EXIT_HELP;

enum { OPT_ONCE = 256 };

int cmd_listen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "bind", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct listen_options o = { .port = DEFAULT_PORT, .out = "." };
	char *end;
	int c;

	optind = 0;
	while ((c = cli_getopt(argc, argv, "p:b:o:h", opts)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		case 'p':
			if (strtoul(optarg, &end, 10) > 65535 || !*optarg || *end)
				return cli_usage_error("bad port: '%s' (0 to 65535)", optarg);
			o.port = optarg;
			break;
		case 'b':
			o.bind = optarg;
			break;
		case 'o':
			o.out = optarg;
			break;
		case OPT_ONCE:
			o.once = 1;
			break;
		default:
			return CLI_EXIT_USAGE;
		}
	}
	if (optind != argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	return listen_run(&o) ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}
