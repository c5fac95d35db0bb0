// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace list PROG: the functions that can be traced, one per line, in
 * address order, like the kernel's available_filter_functions.
 */
#include "cli.h"
#include "../sites/sites.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
	"usage: fntrace list [-a] PROG\n\n"
	"List the traceable functions of PROG (an executable or a shared\n"
	"object), one per line: the functions whose call sites fntrace found.\n\n"
	"  -a, --address   also print each call site: address, length, kind\n"
	"  -h, --help      this text\n\n"
	CLI_EXIT_HELP;

static void print_sites(const struct image_sites *s, int address)
{
	for (unsigned i = 0; i < s->nr; i++) {
		const struct site *site = &s->v[i];

		if (address)
			printf("%#llx %u %s %s\n", (unsigned long long)site->addr,
			       site->len, site->kind == SITE_ENTRY ? "entry" : "frame",
			       site->name);
		else
			printf("%s\n", site->name);
	}
}

/* The sites of the ELF file at path, printed: 0 if it has any. */
static int list_file(const char *path, int address)
{
	struct image_sites sites;
	struct elf_file f;
	char err[256];
	int found;

	if (elf_open_path(&f, path)) {
		cli_error("%s", f.err);
		return CLI_EXIT_FAILED;
	}
	if (sites_discover(&f, &sites, err, sizeof(err))) {
		cli_error("%s: %s", path, err);
		elf_close(&f);
		return CLI_EXIT_FAILED;
	}
	if (sites.warning[0])
		cli_error("%s: %s", path, sites.warning);
	if (sites.nr == 0)
		cli_error("%s has no call sites: compile it with -pg, -pg -mfentry "
			  "or -fpatchable-function-entry=5", path);
	print_sites(&sites, address);
	found = sites.nr > 0;
	sites_free(&sites);
	elf_close(&f);
	return found ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "address", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *path;
	int c, address = 0, ret;

	optind = 1;
	while ((c = cli_getopt(argc, argv, "ah", opts)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		}
		if (c != 'a')
			return CLI_EXIT_USAGE;
		address = 1;
	}
	if (optind == argc)
		return cli_usage_error("no program given");
	if (optind + 1 != argc)
		return cli_usage_error("one program only: '%s' is one too many", argv[optind + 1]);
	/* A file named here is inspected, even without a '/'. */
	path = access(argv[optind], R_OK) == 0 ? strdup(argv[optind])
					     : cli_find_program(argv[optind]);
	if (!path) {
		cli_error("%s: no such program", argv[optind]);
		return CLI_EXIT_FAILED;
	}
	ret = list_file(path, address);
	free(path);
	return ret;
}
