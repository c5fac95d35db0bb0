// SPDX-License-Identifier: GPL-2.0
/*
 * After a recording: each name the user gave (-F, -N, -A, -R) that
 * matched no function of any process it recorded is said, in one line,
 * as `ctl set_ftrace_filter` refuses a name that matches nothing.  A
 * recording cannot refuse up front: a library loaded later may have the
 * function.  Names are matched as the runtime matched them, by symbol or
 * by the name people write (C++).
 */
#include "../cli/cli.h"
#include "record.h"
#include "../common/filter.h"
#include "../trace/trace_reader.h"

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

static void match_function(struct givens *g, const char *symbol, const char *plain,
			   const char *module)
{
	for (unsigned i = 0; i < g->nr; i++)
		if (!g->v[i].matched)
			g->v[i].matched = filter_matches_any_as(&g->v[i].f, symbol, plain, module);
}

/* The file name of module idx of p, as :mod: matches it. */
static const char *module_file(const struct tr_process *p, unsigned idx)
{
	for (unsigned i = 0; i < p->nr_modules; i++)
		if (p->modules[i].idx == idx) {
			const char *slash = strrchr(p->modules[i].path, '/');

			return slash ? slash + 1 : p->modules[i].path;
		}
	return "";
}

/* Every function of p, by its symbol and, for C++, its plain name (the
 * reader keeps both). */
static void match_process(struct givens *g, const struct tr_process *p)
{
	for (uint32_t id = 1; id < p->nr_funcs; id++) {
		const struct tr_func *f = &p->funcs[id];

		if (f->name)
			match_function(g, f->symbol ? f->symbol : f->name,
				       f->symbol ? f->name : NULL, module_file(p, f->module));
	}
}

/* Is text a line of said (names said already, before the run)? */
static int said_already(const char *said, const char *text)
{
	size_t n = strlen(text);

	for (const char *l = said; l && *l; l = strchr(l, '\n') + 1)
		if (!strncmp(l, text, n) && l[n] == '\n')
			return 1;
	return 0;
}

/* A name that matched nothing may be a library's function, whose calls
 * the runtime of some architectures does not trace yet: said so. */
void record_say_unmatched(const char *dir, const struct record_options *o,
			  const char *no_libcalls, const char *said)
{
	struct givens g = { 0 };
	struct trace_data td;

	add_list(&g, "-F", o->filter);
	add_list(&g, "-N", o->notrace);
	add_specs(&g, o->args);
	/* A recording the reader cannot open tells nothing of its names. */
	if (g.nr && tr_open(&td, dir) == 0) {
		for (unsigned i = 0; i < td.nr_procs; i++)
			match_process(&g, &td.procs[i]);
		for (unsigned i = 0; i < g.nr; i++)
			if (!g.v[i].matched && !said_already(said, g.v[i].text))
				cli_error("%s '%s' matched no function of the program%s%s%s",
					  g.v[i].option, g.v[i].text,
					  no_libcalls ? " (library calls: not supported on " : "",
					  no_libcalls ? no_libcalls : "", no_libcalls ? ")" : "");
		tr_close(&td);
	}
	for (unsigned i = 0; i < g.nr; i++) {
		filter_free(&g.v[i].f);
		free(g.v[i].text);
	}
	free(g.v);
}
