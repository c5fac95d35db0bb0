// SPDX-License-Identifier: GPL-2.0
/*
 * The traceability check of `record`: the program's own call sites, or
 * those of the libraries it names (DT_NEEDED) that are found through
 * LD_LIBRARY_PATH or its run path.  System libraries are never compiled
 * for tracing, so they are not searched.  And that of record and run
 * both: a static program has no loader to put the runtime in, so it must
 * have it linked in (fntrace cc -static).
 */
#include "probe.h"
#include "../cli/cli.h"
#include "../sites/sites.h"

#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int count_sites(const struct elf_file *f, const char *path)
{
	struct image_sites sites;
	char err[256];
	int n;

	/* Sites no symbol names are left alone (record says so after). */
	if (sites_unnamed(f))
		return 0;
	/* A program of 100 000 functions need not be read whole to say yes. */
	if (sites_quick_any(f))
		return 1;
	if (sites_discover(f, &sites, err, sizeof(err))) {
		cli_error("%s: %s", path, err);
		return -1;
	}
	n = sites.nr;
	sites_free(&sites);
	return n;
}

/* Look for a library in a colon-separated list of directories. */
static int find_in(const char *dirs, const char *origin, const char *name,
		   char *out, size_t len)
{
	while (dirs && *dirs) {
		size_t n = strcspn(dirs, ":");

		if (n >= 7 && !strncmp(dirs, "$ORIGIN", 7))
			snprintf(out, len, "%s%.*s/%s", origin, (int)(n - 7), dirs + 7, name);
		else
			snprintf(out, len, "%.*s/%s", (int)n, dirs, name);
		if (n && access(out, R_OK) == 0)
			return 1;
		dirs += n + (dirs[n] == ':');
	}
	return 0;
}

static int lib_has_sites(const char *path)
{
	struct elf_file f;
	int n;

	if (elf_open_path(&f, path))
		return 0;
	n = count_sites(&f, path);
	elf_close(&f);
	return n > 0;
}

/* fn on each library the program names (DT_NEEDED) found through
 * LD_LIBRARY_PATH, its run path, then dirs (NULL: none), until one
 * returns non-zero: that value, or 0. */
static int for_each_needed(const struct elf_file *f, const char *path, const char *dirs,
			   int (*fn)(const char *lib, void *arg), void *arg)
{
	int dyn = elf_find_section_type(f, SHT_DYNAMIC), r = 0;
	const uint8_t *d = dyn > 0 ? elf_section_data(f, dyn) : NULL;
	const char *strtab = NULL, *runpath = "", *env = getenv("LD_LIBRARY_PATH");
	unsigned w = elf_word_size(f), strsize = 0;
	char origin[PATH_MAX], lib[PATH_MAX];

	if (!d)
		return 0;
	strtab = (const char *)elf_section_data(f, f->sections[dyn].link);
	strsize = f->sections[f->sections[dyn].link].size;
	snprintf(origin, sizeof(origin), "%s", path);
	*(strrchr(origin, '/') ? strrchr(origin, '/') : origin) = '\0';
	for (uint64_t off = 0; strtab && off + 2 * w <= f->sections[dyn].size; off += 2 * w)
		if ((elf_word(f, d + off) == DT_RUNPATH || elf_word(f, d + off) == DT_RPATH) &&
		    elf_word(f, d + off + w) < strsize)
			runpath = strtab + elf_word(f, d + off + w);
	for (uint64_t off = 0; !r && strtab && off + 2 * w <= f->sections[dyn].size; off += 2 * w) {
		uint64_t val = elf_word(f, d + off + w);

		if (elf_word(f, d + off) != DT_NEEDED || val >= strsize)
			continue;
		if (find_in(env, origin, strtab + val, lib, sizeof(lib)) ||
		    find_in(runpath, origin, strtab + val, lib, sizeof(lib)) ||
		    find_in(dirs, origin, strtab + val, lib, sizeof(lib)))
			r = fn(lib, arg);
	}
	return r;
}

static int has_sites_fn(const char *lib, void *unused)
{
	(void)unused;
	return lib_has_sites(lib);
}

/* Do any of the program's own libraries have call sites? */
static int needed_have_sites(const struct elf_file *f, const char *path)
{
	return for_each_needed(f, path, NULL, has_sites_fn, NULL);
}

struct paths {
	char **v;
	unsigned nr;
};

static int keep_path(const char *lib, void *arg)
{
	struct paths *p = arg;
	char **v = realloc(p->v, (p->nr + 1) * sizeof(*v));

	if (!v)
		return -1;
	p->v = v;
	return (p->v[p->nr] = strdup(lib)) ? (p->nr++, 0) : -1;
}

int probe_needed_paths(const char *path, const char *dirs, char ***out, unsigned *n)
{
	struct paths p = { NULL, 0 };
	struct elf_file f;
	int r;

	if (elf_open_path(&f, path))
		return -1;
	r = for_each_needed(&f, path, dirs, keep_path, &p);
	elf_close(&f);
	*out = p.v;
	*n = p.nr;
	return r < 0 ? -1 : 0;
}

static int is_script(const char *path)
{
	char head[2] = "";
	FILE *f = fopen(path, "re");

	if (f) {
		if (fread(head, 1, 2, f) != 2)
			head[0] = '\0';
		fclose(f);
	}
	return head[0] == '#' && head[1] == '!';
}

int probe_traceable(const char *path)
{
	struct elf_file f;
	int n;

	if (is_script(path))
		return 1;
	if (elf_open_path(&f, path)) {
		cli_error("%s", f.err);
		return -1;
	}
	n = count_sites(&f, path);
	if (n == 0)
		n = needed_have_sites(&f, path);
	elf_close(&f);
	return n < 0 ? -1 : n > 0;
}

/* No PT_INTERP: no loader, no LD_PRELOAD. */
static int statically_linked(const struct elf_file *f)
{
	for (unsigned i = 0; i < f->phnum; i++)
		if (f->segments[i].type == PT_INTERP)
			return 0;
	return f->phnum > 0;
}

int probe_runtime_reachable(const char *path)
{
	struct elf_file f;
	int ok;

	if (is_script(path) || elf_open_path(&f, path))
		return 0;	/* a script's programs are checked as they run */
	ok = !statically_linked(&f) || elf_find_section(&f, ".note.fntrace") > 0;
	elf_close(&f);
	if (!ok)
		cli_error("%s is statically linked without fntrace's runtime: nothing in it "
			  "can be traced (build it with 'fntrace cc -static')", path);
	return ok ? 0 : -1;
}
