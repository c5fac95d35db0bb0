// SPDX-License-Identifier: GPL-2.0
/*
 * Before record or run starts a program built without call sites: its
 * detour plan (src/detour/publish.c) written where the runtime looks for
 * it, and each function a filter names that cannot be patched said, one
 * line each.  The program's own image only: a library it loads is traced
 * through its call sites, or not at all (a module dlopen()ed later gets
 * no detours either).
 */
#include "probe.h"
#include "../cli/cli.h"
#include "../detour/detour.h"
#include "../sites/sites.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

static int has_sites(const struct elf_file *f)
{
	struct image_sites sites;
	char err[256];
	int n;

	if (sites_quick_any(f))
		return 1;
	if (sites_discover(f, &sites, err, sizeof(err)))
		return 1;	/* said by the check of the program, if at all */
	n = sites.nr;
	sites_free(&sites);
	return n > 0;
}

/* A line of the filter that is a refused function's very name. */
static void say_refused(const struct detour_plans *plans, const char *filter)
{
	for (const char *line = filter; line && *line;) {
		size_t n = strcspn(line, "\n");

		for (unsigned i = 0; i < plans->nr; i++) {
			const struct detour_plan *p = &plans->v[i];

			if (p->refusal && strlen(p->name) == n && !strncmp(p->name, line, n))
				cli_error("-F '%s': not traced: built without call sites, and its "
					  "entry cannot be replaced by a jump (%s at %#llx)",
					  p->name, detour_refusal_str(p->refusal),
					  (unsigned long long)p->why_at);
		}
		line += n + (line[n] == '\n');
	}
}

int probe_detours_prepare(const char *path, const char *filter)
{
	struct detour_plans plans;
	struct elf_file f;
	char err[256];
	int ret = 0;

	if (elf_open_path(&f, path))
		return 0;	/* the program's check says why */
	if (f.machine == EM_X86_64 && !has_sites(&f)) {
		if (detour_publish(&f, &plans, err, sizeof(err))) {
			cli_error("%s: no detours: %s", path, err);
			ret = -1;
		} else {
			say_refused(&plans, filter);
			detour_plans_free(&plans);
		}
	}
	elf_close(&f);
	return ret;
}
