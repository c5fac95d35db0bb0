// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace list PROG: the functions that can be traced, one per line, in
 * address order, like the kernel's available_filter_functions.  With
 * --detours: which functions' entries can be replaced by a jump
 * (src/detour/), and why not.
 */
#include "cli.h"
#include "../detour/detour.h"
#include "../sites/sites.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
	"usage: fntrace list [-a] [--detours] PROG\n\n"
	"List the traceable functions of PROG (an executable or a shared\n"
	"object), one per line: the functions whose call sites fntrace found.\n\n"
	"  -a, --address   also print each call site: address, length, kind\n"
	"      --detours   functions without call sites: one line per function\n"
	"                  whose entry cannot be replaced by a jump, with the\n"
	"                  reason, then how many can; with -a, the others too,\n"
	"                  with the address and length of the bytes replaced\n"
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

static void print_plan(const struct detour_plan *p, int address)
{
	if (p->refusal)
		printf("%s: %s (%#llx)\n", p->name, detour_refusal_str(p->refusal),
		       (unsigned long long)p->why_at);
	else if (address)
		printf("%#llx %u detour %s\n", (unsigned long long)p->patch, p->len, p->name);
}

/* Each function refused (with -a, each one patched too), then the share
 * of the functions: a cold part, a piece of one, is not counted. */
static void print_plans(const struct detour_plans *plans, int address)
{
	unsigned cold = 0, funcs;

	for (unsigned i = 0; i < plans->nr; i++) {
		print_plan(&plans->v[i], address);
		cold += plans->v[i].refusal == DETOUR_COLD_PART;
	}
	funcs = plans->nr - cold;
	printf("%u of %u functions can be patched (%.1f%%)", plans->ok, funcs,
	       funcs ? 100.0 * plans->ok / funcs : 0.0);
	if (cold)
		printf(", %u cold parts left out", cold);
	printf("\n");
}

/* The detour plan of the ELF file at path, printed: 0 if it has any
 * function. */
static int list_detours(const char *path, int address)
{
	struct detour_plans plans;
	struct elf_file f;
	char err[256];
	int ret = CLI_EXIT_FAILED;

	if (elf_open_path(&f, path)) {
		cli_error("%s", f.err);
		return CLI_EXIT_FAILED;
	}
	if (detour_plan_image(&f, &plans, err, sizeof(err))) {
		cli_error("%s: %s", path, err);
	} else if (plans.nr == 0) {
		cli_error("%s has no function symbols", path);
	} else {
		print_plans(&plans, address);
		ret = CLI_EXIT_OK;
	}
	detour_plans_free(&plans);
	elf_close(&f);
	return ret;
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "address", no_argument, NULL, 'a' },
		{ "detours", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *path;
	int c, address = 0, detours = 0, ret;

	optind = 1;
	while ((c = cli_getopt(argc, argv, "ah", opts)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		}
		if (c != 'a' && c != 'D')
			return CLI_EXIT_USAGE;
		address |= c == 'a';
		detours |= c == 'D';
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
	ret = detours ? list_detours(path, address) : list_file(path, address);
	free(path);
	return ret;
}
