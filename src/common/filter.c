// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing and applying set_ftrace_filter expressions.  The match types
 * mirror the kernel's filter_parse_regex(): the common shapes (exact,
 * prefix, suffix, substring) avoid the general glob.
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum glob_type classify(char *pat, char **body)
{
	size_t len = strlen(pat);
	int front = len > 0 && pat[0] == '*';
	int back = len > 1 && pat[len - 1] == '*';
	char *inner;

	if (strpbrk(pat, "?[\\")) {
		*body = pat;
		return MATCH_GLOB;
	}
	inner = pat + front;
	if (back)
		pat[len - 1] = '\0';
	if (strchr(inner, '*')) {
		if (back)
			pat[len - 1] = '*';
		*body = pat;
		return MATCH_GLOB;
	}
	*body = inner;
	if (front && back)
		return MATCH_MIDDLE_ONLY;
	if (front)
		return MATCH_END_ONLY;
	return back ? MATCH_FRONT_ONLY : MATCH_FULL;
}

static int match_one(const struct filter_expr *e, const char *s)
{
	size_t ls, lp;

	switch (e->type) {
	case MATCH_FULL:
		return strcmp(s, e->pattern) == 0;
	case MATCH_FRONT_ONLY:
		return strncmp(s, e->pattern, strlen(e->pattern)) == 0;
	case MATCH_END_ONLY:
		ls = strlen(s);
		lp = strlen(e->pattern);
		return ls >= lp && strcmp(s + ls - lp, e->pattern) == 0;
	case MATCH_MIDDLE_ONLY:
		return strstr(s, e->pattern) != NULL;
	default:
		return glob_match(e->pattern, s);
	}
}

/* A module matches by its file name, or by the name without ".so...". */
static int module_matches(const char *glob, const char *module)
{
	char stem[256];
	const char *so;
	size_t len;

	if (glob_match(glob, module))
		return 1;
	so = strstr(module, ".so");
	len = so ? (size_t)(so - module) : strlen(module);
	if (!so || len >= sizeof(stem))
		return 0;
	memcpy(stem, module, len);
	stem[len] = '\0';
	return glob_match(glob, stem);
}

static int expr_matches(const struct filter_expr *e, const char *func, const char *plain,
			const char *module)
{
	if (e->module && (!module || !module_matches(e->module, module)))
		return 0;
	return match_one(e, func) || (plain && match_one(e, plain));
}

static int fail(char *err, size_t len, const char *why, const char *expr)
{
	snprintf(err, len, "%s: '%s'", why, expr);
	return -1;
}

/* The ':' before a command ("func:mod:M"), not one of C++'s "::"
 * ("Gen::next", "ns::f:mod:M"); NULL if there is none. */
static char *command_colon(const char *text)
{
	for (const char *p = strchr(text, ':'); p; p = strchr(p + 1, ':')) {
		if (p[1] == ':') {
			p++;
			continue;
		}
		return (char *)p;
	}
	return NULL;
}

const char *filter_command(const char *expr)
{
	const char *colon = command_colon(expr);

	if (colon && !strncmp(colon + 1, "mod:", 4))
		colon = strchr(colon + 5, ':');
	return colon ? colon + 1 : NULL;
}

/* Split "func:mod:MODULE" and check both halves. */
static int split_module(char *text, char **module, const char *expr,
			char *err, size_t errlen)
{
	char *colon = command_colon(text);

	*module = NULL;
	if (!colon)
		return 0;
	*colon = '\0';
	if (strncmp(colon + 1, "mod:", 4) != 0)
		return fail(err, errlen, "unknown filter command (only :mod: is supported)", expr);
	*module = colon + 5;
	if (!**module || strchr(*module, ':'))
		return fail(err, errlen, "bad module name", expr);
	if (!glob_valid(*module))
		return fail(err, errlen, "bad glob in module name", expr);
	return 0;
}

static int append(struct filter *f, const struct filter_expr *e)
{
	struct filter_expr *v = realloc(f->v, (f->nr + 1) * sizeof(*v));

	if (!v)
		return -1;
	f->v = v;
	f->v[f->nr++] = *e;
	f->nr_add += !e->remove;
	return 0;
}

int filter_add(struct filter *f, const char *expr, char *err, size_t errlen)
{
	struct filter_expr e = { 0 };
	char *text, *body, *module;

	e.remove = expr[0] == '!';
	text = strdup(expr + e.remove);
	if (!text)
		return fail(err, errlen, "out of memory", expr);
	if (split_module(text, &module, expr, err, errlen))
		goto bad;
	/* The kernel's ":mod:M": every function of M (text holds more). */
	if (!*text && module)
		strcpy(text, "*");
	if (!*text) {
		fail(err, errlen, "empty filter", expr);
		goto bad;
	}
	if (!glob_valid(text)) {
		fail(err, errlen, "bad glob", expr);
		goto bad;
	}
	e.type = classify(text, &body);
	e.pattern = strdup(body);
	e.module = module ? strdup(module) : NULL;
	e.text = strdup(expr);
	free(text);
	if (!e.pattern || !e.text || (module && !e.module) || append(f, &e)) {
		free(e.pattern);
		free(e.module);
		free(e.text);
		return fail(err, errlen, "out of memory", expr);
	}
	return 0;
bad:
	free(text);
	return -1;
}

int filter_add_list(struct filter *f, const char *list, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return fail(err, errlen, "out of memory", list);
	for (tok = strtok_r(copy, "\n,", &save); tok && !ret;
	     tok = strtok_r(NULL, "\n,", &save))
		ret = filter_add(f, tok, err, errlen);
	free(copy);
	return ret;
}

void filter_free(struct filter *f)
{
	for (unsigned i = 0; i < f->nr; i++) {
		free(f->v[i].pattern);
		free(f->v[i].module);
		free(f->v[i].text);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* Only removals ("!foo") start from every function, which is what their
 * author means; the kernel would leave its empty hash, i.e. all, alone. */
int filter_selects_as(const struct filter *f, const char *func, const char *plain,
		      const char *module)
{
	int in = f->nr_add == 0;

	for (unsigned i = 0; i < f->nr; i++)
		if (expr_matches(&f->v[i], func, plain, module))
			in = !f->v[i].remove;
	return in;
}

int filter_matches_any_as(const struct filter *f, const char *func, const char *plain,
			  const char *module)
{
	int in = 0;

	for (unsigned i = 0; i < f->nr; i++)
		if (expr_matches(&f->v[i], func, plain, module))
			in = !f->v[i].remove;
	return in;
}

int filter_selects(const struct filter *f, const char *func, const char *module)
{
	return filter_selects_as(f, func, NULL, module);
}
