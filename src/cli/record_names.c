// SPDX-License-Identifier: GPL-2.0
/*
 * After a recording: each name the user gave (-F, -N, -A, -R) that
 * matched no function of any process it recorded is said, in one line,
 * as `ctl set_ftrace_filter` refuses a name that matches nothing.  A
 * recording cannot refuse up front: a library loaded later may have the
 * function.  Names are matched as the runtime matched them, by symbol or
 * by the name people write (C++).
 */
#include "cli.h"
#include "record.h"
#include "../common/array.h"
#include "../common/filter.h"
#include "../trace/demangle.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One expression, and whether a function matched it. */
struct given {
	const char *option;	/* "-F", "-N", "-A" */
	char *text;		/* as given */
	struct filter f;	/* the expression alone */
	int matched;
};

struct givens {
	struct given *v;
	unsigned nr;
};

static void add_given(struct givens *g, const char *option, const char *text,
		      const char *expr)
{
	char err[256];
	struct given *v = realloc(g->v, (g->nr + 1) * sizeof(*v));

	if (!v)
		return;
	g->v = v;
	v = &g->v[g->nr];
	memset(v, 0, sizeof(*v));
	/* '!name' too must name something: matched without its '!' */
	if (filter_add(&v->f, expr + (expr[0] == '!'), err, sizeof(err)) ||
	    !(v->text = strdup(text))) {
		filter_free(&v->f);
		return;
	}
	v->option = option;
	g->nr++;
}

/* Each expression of a list (one per line, or comma-separated). */
static void add_list(struct givens *g, const char *option, const char *list)
{
	char *copy = list ? strdup(list) : NULL, *save = NULL;

	for (char *e = copy ? strtok_r(copy, "\n,", &save) : NULL; e;
	     e = strtok_r(NULL, "\n,", &save))
		add_given(g, option, e, e);
	free(copy);
}

/* -A and -R specs: the function part, before '@'. */
static void add_specs(struct givens *g, const char *specs)
{
	char *copy = specs ? strdup(specs) : NULL, *save = NULL, *at;

	for (char *s = copy ? strtok_r(copy, "\n", &save) : NULL; s;
	     s = strtok_r(NULL, "\n", &save))
		if ((at = strchr(s, '@'))) {
			char *func = strndup(s, at - s);

			if (func)
				add_given(g, "-A/-R", s, func);
			free(func);
		}
	free(copy);
}

static void match_function(struct givens *g, const char *symbol, const char *module)
{
	char *plain = NULL;

	for (unsigned i = 0; i < g->nr; i++) {
		if (g->v[i].matched)
			continue;
		if (!plain && !strncmp(symbol, "_Z", 2))
			plain = demangle(symbol);
		g->v[i].matched = filter_matches_any_as(&g->v[i].f, symbol, plain, module);
	}
	free(plain);
}

/* The file name of a "module IDX BIAS START END PATH" line's path. */
static const char *module_name(char *line)
{
	char *path = line, *slash;

	for (int field = 0; field < 5 && path; field++)
		path = strchr(path + 1, ' ');
	if (!path)
		return "";
	path[strcspn(path, "\n")] = '\0';
	slash = strrchr(++path, '/');
	return slash ? slash + 1 : path;
}

/* A funcs file's modules, by index. */
struct modules {
	char **name;
	size_t cap;
};

static void note_module(struct modules *m, unsigned idx, char *line)
{
	size_t old = m->cap;

	if (idx >= 1u << 16 || grow_array((void **)&m->name, &m->cap, idx + 1, sizeof(char *)))
		return;
	memset(m->name + old, 0, (m->cap - old) * sizeof(char *));
	free(m->name[idx]);
	m->name[idx] = strdup(module_name(line));
}

static const char *module_of(const struct modules *m, unsigned idx)
{
	return idx < m->cap && m->name[idx] ? m->name[idx] : "";
}

/* "func ID ADDR MODIDX NAME" lines against every given name. */
static void match_file(struct givens *g, const char *dir, const char *name)
{
	char path[4400], *line = NULL, fname[4096];
	struct modules m = { 0 };
	size_t cap = 0;
	unsigned idx;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "re")))
		return;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "module %u", &idx) == 1)
			note_module(&m, idx, line);
		else if (sscanf(line, "func %*u %*s %u %4095s", &idx, fname) == 2)
			match_function(g, fname, module_of(&m, idx));
	}
	for (size_t i = 0; i < m.cap; i++)
		free(m.name[i]);
	free(m.name);
	free(line);
	fclose(f);
}

void record_say_unmatched(const char *dir, const struct record_options *o)
{
	struct givens g = { 0 };
	DIR *d = opendir(dir);
	struct dirent *e;

	add_list(&g, "-F", o->filter);
	add_list(&g, "-N", o->notrace);
	add_specs(&g, o->args);
	while (d && g.nr && (e = readdir(d)))
		if (!strncmp(e->d_name, "funcs-", 6))
			match_file(&g, dir, e->d_name);
	if (d)
		closedir(d);
	for (unsigned i = 0; i < g.nr; i++) {
		if (!g.v[i].matched)
			cli_error("%s '%s' matched no function of the program", g.v[i].option,
				  g.v[i].text);
		filter_free(&g.v[i].f);
		free(g.v[i].text);
	}
	free(g.v);
}
