// SPDX-License-Identifier: GPL-2.0
/*
 * After a recording: did the program run untraced?  A recording that
 * holds nothing says why in one line and fails (the program's own failing
 * status is passed on all the same), never "recorded 0 calls" as if all
 * was well.  What the recorder knows afterwards: the funcs-PID files the
 * runtime of each process wrote (one with "func" lines had call sites),
 * and FT_SHM_KILLED, which a runtime that switched its tracing off set in
 * the shared memory.
 *
 *   no funcs file at all, the program had sites   the runtime never started
 *                                                 in it (the loader did
 *                                                 not load it, it ended
 *                                                 first; a static program
 *                                                 without it is refused
 *                                                 before it runs:
 *                                                 src/target/probe.c)
 *   no funcs file with sites                      nothing traceable ran (or
 *                                                 its sites name no function:
 *                                                 it was stripped)
 *   sites, no event, a runtime switched off       said by that runtime;
 *                                                 nothing was recorded
 */
#include "../cli/cli.h"
#include "record.h"
#include "../elf/elf.h"
#include "../sites/sites.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum funcs_found { FUNCS_NONE, FUNCS_NO_SITES, FUNCS_SITES };

static int file_has_func(const char *dir, const char *name)
{
	char path[4400], *line = NULL;
	size_t cap = 0;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	while (f && !found && getline(&line, &cap, f) > 0)
		found = !strncmp(line, "func ", 5);
	if (f)
		fclose(f);
	free(line);
	return found;
}

/* What the processes' funcs files say; sites if the directory is gone,
 * which is another story, told by datadir_seal(). */
static enum funcs_found funcs_found(const char *dir)
{
	DIR *dh = opendir(dir);
	enum funcs_found found = FUNCS_NONE;
	struct dirent *e;

	if (!dh)
		return FUNCS_SITES;
	while (found != FUNCS_SITES && (e = readdir(dh)))
		if (!strncmp(e->d_name, "funcs-", 6))
			found = file_has_func(dir, e->d_name) ? FUNCS_SITES : FUNCS_NO_SITES;
	closedir(dh);
	return found;
}

/* The program's sites that no symbol names: it was stripped. */
static unsigned unnamed_sites(const char *path)
{
	struct elf_file f;
	unsigned n;

	if (!path || elf_open_path(&f, path))
		return 0;
	n = sites_unnamed(&f);
	elf_close(&f);
	return n;
}

int record_untraced(const struct record_untraced *u)
{
	const char *name = u->argv0;
	unsigned unnamed;

	switch (funcs_found(u->dir)) {
	case FUNCS_SITES:
		/* Functions of a program without call sites (detours, of a
		 * plan cached before) are traced only if a filter names them. */
		if (!u->has_sites && !u->filtered && !u->events)
			break;
		if (!u->killed || u->events)
			return 0;
		cli_error("tracing was switched off in %s (said above): nothing was recorded",
			  name);
		return 1;
	case FUNCS_NONE:
		if (!u->has_sites)
			break;
		cli_error("%s ran untraced: the runtime never started in it (it ended "
			  "first, or the loader did not load the runtime)", name);
		return 1;
	case FUNCS_NO_SITES:
		break;
	}
	if ((unnamed = unnamed_sites(u->path)))
		cli_error("no traced program ran: %s: its %u call sites name no function: its "
			  "symbols were stripped (strip --strip-debug keeps them)", name, unnamed);
	else
		cli_error("no traced program ran: %s, and what it started, had no call sites "
			  "(compile with -pg, -pg -mfentry or -fpatchable-function-entry=5, "
			  "and link without -pg)", name);
	return 1;
}
