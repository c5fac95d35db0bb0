// SPDX-License-Identifier: GPL-2.0
/*
 * Before record or run starts a program built without call sites: its
 * detour plan (src/detour/publish.c) written where the runtime looks for
 * it, and each function a filter names that cannot be patched said, one
 * line each.  The program's own image, and with a filter the libraries it
 * names (DT_NEEDED) that define a function the filter names exactly.
 * Before fntrace ctl writes set_ftrace_filter: every module the process
 * has mapped that defines a function the filter names exactly, planned
 * in the process's cache, where the runtime looks again on that write.
 */
#include "probe.h"
#include "../cli/cli.h"
#include "../common/fileio.h"
#include "../detour/detour.h"
#include "../sites/funcsyms.h"
#include "../sites/sites.h"

#include <elf.h>
#include <stdio.h>
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

/* name, added to the newline-separated list *said. */
static void add_said(char **said, const char *name)
{
	size_t old = *said ? strlen(*said) : 0, n = strlen(name);
	char *s = realloc(*said, old + n + 2);

	if (!s)
		return;
	memcpy(s + old, name, n);
	strcpy(s + old + n, "\n");
	*said = s;
}

/* A line of the filter that is a refused function's very name: said,
 * and added to *said. */
static void say_refused(const struct detour_plans *plans, const char *filter, const char *opt,
			char **said)
{
	for (const char *line = filter; line && *line;) {
		size_t n = strcspn(line, "\n");

		for (unsigned i = 0; i < plans->nr; i++) {
			const struct detour_plan *p = &plans->v[i];

			if (p->refusal && strlen(p->name) == n && !strncmp(p->name, line, n)) {
				cli_error("%s '%s': not traced: built without call sites, and its "
					  "entry cannot be replaced by a jump (%s at %#llx)",
					  opt, p->name, detour_refusal_str(p->refusal),
					  (unsigned long long)p->why_at);
				add_said(said, p->name);
			}
		}
		line += n + (line[n] == '\n');
	}
}

/* Does the filter name one of f's functions exactly? */
static int names_one_of(const struct elf_file *f, const char *filter)
{
	struct funcsyms fs = { 0 };
	int found = 0;

	if (!filter || funcsyms_collect(f, &fs))
		return 0;
	for (unsigned i = 0; i < fs.nr && !found; i++)
		for (const char *line = filter; *line && !found;) {
			size_t n = strcspn(line, "\n");

			found = strlen(fs.v[i].name) == n && !strncmp(fs.v[i].name, line, n);
			line += n + (line[n] == '\n');
		}
	funcsyms_free(&fs);
	return found;
}

/* Is the image one to plan: an architecture with detours, no call sites, and for a library a
 * function the filter names; planned already, unless there is a filter
 * to say what it refuses (about 40 ms per MB of code)? */
static int wants_plan(const struct elf_file *f, const char *filter, int library)
{
	return detour_live(f->machine) && (filter || !detour_plan_cached(f)) && !has_sites(f) &&
	       (!library || names_one_of(f, filter));
}

/*
 * ThreadSanitizer's entry hook, where clang links it into the program,
 * is called directly with the return address the graph tracer took: the
 * runtime hands it the real one through a detour (core/detours.c, a pc
 * fix), planned here.  An image without call sites gets it in its whole
 * plan.
 */
#define TSAN_ENTRY "__tsan_func_entry"

static int defines_tsan_entry(const struct elf_file *f)
{
	int dynsym = elf_find_section_type(f, SHT_DYNSYM);
	struct elf_sym s;

	for (unsigned i = 1; dynsym > 0 && i < elf_sym_count(f, dynsym); i++)
		if (!elf_sym_get(f, dynsym, i, &s) && s.shndx != SHN_UNDEF &&
		    s.type == STT_FUNC && !strcmp(s.name, TSAN_ENTRY))
			return 1;
	return 0;
}

static void plan_tsan_fix(const struct elf_file *f, const char *path)
{
	char err[256];

	if (detour_live(f->machine) && defines_tsan_entry(f) && !detour_plan_cached(f) &&
	    has_sites(f) && detour_publish_one(f, TSAN_ENTRY, err, sizeof(err)))
		pr_warn("%s: ThreadSanitizer's reports may name return_to_handler: %s", path, err);
}

/* The image's plan written if wanted.  One that cannot be (no build-id,
 * no cache directory, a full disk) costs its detours, not the run: said
 * when a filter asked for functions. */
static void prepare_image(const char *path, const char *filter, int library, const char *opt,
			  char **said)
{
	struct detour_plans plans;
	struct elf_file f;
	char err[256];

	if (elf_open_path(&f, path))
		return;		/* the program's check says why */
	if (wants_plan(&f, filter, library)) {
		if (detour_publish(&f, &plans, err, sizeof(err))) {
			if (filter)
				cli_error("%s: its functions without call sites cannot be "
					  "traced: %s", path, err);
		} else {
			say_refused(&plans, filter, opt, said);
			detour_plans_free(&plans);
		}
	} else if (!library) {
		plan_tsan_fix(&f, path);
	}
	elf_close(&f);
}

/*
 * The libraries the program names (DT_NEEDED), where the loader would
 * find them.  libc and the loader are left out: the runtime calls into
 * them itself, from inside the tracer (their calls from the program are
 * traced through its GOT, libcalls.c).
 */
static const char *const system_dirs = "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:"
				       "/lib64:/usr/lib64:/lib:/usr/lib";

static int left_out(const char *name)
{
	return !strncmp(name, "libc.so", 7) || !strncmp(name, "ld-linux", 8) ||
	       !strncmp(name, "libpthread.so", 13) || !strncmp(name, "libdl.so", 8);
}

static void prepare_needed(const char *path, const char *filter, const char *opt, char **said)
{
	char **libs = NULL;
	unsigned n = 0;

	probe_needed_paths(path, system_dirs, &libs, &n);	/* none if unreadable */
	for (unsigned i = 0; i < n; i++) {
		const char *base = strrchr(libs[i], '/') ? strrchr(libs[i], '/') + 1 : libs[i];

		if (!left_out(base))
			prepare_image(libs[i], filter, 1, opt, said);
		free(libs[i]);
	}
	free(libs);
}

char *probe_detours_prepare(const char *path, const char *filter, const char *opt)
{
	char *said = NULL;

	prepare_image(path, filter, 0, opt, &said);
	if (filter)
		prepare_needed(path, filter, opt, &said);
	return said;
}

/* ---- a running process (fntrace ctl) ---- */

/* The exact function names among a set_ftrace_filter value's words, one
 * a line: FUNC of FUNC, FUNC:mod:M and a trigger's FUNC:COMMAND; not a
 * glob (which would plan every library it matches) nor a '!'. */
char *probe_exact_names(const char *value)
{
	char *copy = strdup(value), *save = NULL, *names = NULL;

	for (char *w = copy ? strtok_r(copy, " \t\n", &save) : NULL; w;
	     w = strtok_r(NULL, " \t\n", &save)) {
		w[strcspn(w, ":")] = '\0';
		if (*w && *w != '!' && !w[strcspn(w, "*?[\\")])
			add_said(&names, w);
	}
	free(copy);
	return names;
}

/* What the runtime finds its cache by (sitefile.c). */
static const char *const cache_vars[] = { "FNTRACE_CACHE", "XDG_CACHE_HOME", "HOME" };
#define NR_CACHE_VARS (sizeof(cache_vars) / sizeof(cache_vars[0]))

/* One of them as env (pid's) has it, made ours. */
static void take_env(const char *env, size_t len, const char *name)
{
	size_t n = strlen(name);

	for (size_t at = 0; at < len; at += strlen(env + at) + 1)
		if (!strncmp(env + at, name, n) && env[at + n] == '=') {
			setenv(name, env + at + n + 1, 1);
			return;
		}
	unsetenv(name);
}

/* A /proc file's whole content (its size says 0), NUL-terminated. */
static char *read_proc(pid_t pid, const char *name, size_t *len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	return read_proc_file(path, len);
}

/*
 * The runtime finds its plans in its cache directory, by its own
 * environment: the same variables, as pid was started with, made ours
 * while planning, ours kept in saved (record -p goes on with its own).
 * A process whose environment we may not read (another user's) is
 * planned for in ours.
 */
static void take_cache_env(pid_t pid, char *saved[NR_CACHE_VARS])
{
	size_t len;
	char *env = read_proc(pid, "environ", &len);

	for (unsigned i = 0; i < NR_CACHE_VARS; i++) {
		const char *ours = getenv(cache_vars[i]);

		saved[i] = ours ? strdup(ours) : NULL;
		if (env)
			take_env(env, len, cache_vars[i]);
	}
	free(env);
}

static void give_back_cache_env(char *saved[NR_CACHE_VARS])
{
	for (unsigned i = 0; i < NR_CACHE_VARS; i++) {
		if (saved[i])
			setenv(cache_vars[i], saved[i], 1);
		else
			unsetenv(cache_vars[i]);
		free(saved[i]);
	}
}

/* The files pid maps code from, each once, in the order of the map. */
static char **mapped_code(pid_t pid, unsigned *n)
{
	size_t len;
	char *maps = read_proc(pid, "maps", &len), *save = NULL, **v = NULL;

	*n = 0;
	for (char *line = maps ? strtok_r(maps, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char perms[8], *path = strchr(line, '/'), **grown;
		unsigned i = 0;

		if (sscanf(line, "%*s %7s", perms) != 1 || !strchr(perms, 'x') || !path ||
		    strstr(path, " (deleted)"))
			continue;
		while (i < *n && strcmp(v[i], path))
			i++;
		if (i < *n || !(grown = realloc(v, (*n + 1) * sizeof(*v))))
			continue;
		v = grown;
		if ((v[*n] = strdup(path)))
			(*n)++;
	}
	free(maps);
	return v;
}

char *probe_detours_prepare_pid(pid_t pid, const char *value, const char *opt)
{
	char *names = probe_exact_names(value), *said = NULL, **paths, *saved[NR_CACHE_VARS];
	unsigned n = 0;

	if (!names)
		return NULL;
	take_cache_env(pid, saved);
	paths = mapped_code(pid, &n);
	for (unsigned i = 0; i < n; i++) {
		const char *base = strrchr(paths[i], '/') + 1;

		if (!left_out(base))
			prepare_image(paths[i], names, 1, opt, &said);
		free(paths[i]);
	}
	give_back_cache_env(saved);
	free(paths);
	free(names);
	return said;
}
