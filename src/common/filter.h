/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function filters in the kernel's set_ftrace_filter syntax:
 *
 *   func         exact name          !func        remove what matches
 *   abc*         prefix              *abc         suffix
 *   *abc*        substring           a?c, [ab]c   full glob ('\' escapes)
 *   func:mod:M   only in module M (a glob over the module's file name,
 *                with or without its ".so..." suffix); kept and applied
 *                to modules loaded later; :mod:M alone is *:mod:M
 *
 * A filter is a list of such expressions applied in order: each adds the
 * functions it matches to the set, or with '!' removes them.  The set
 * starts empty, or full if every expression removes; an empty filter
 * selects every function (the kernel's empty filter hash).
 */
#ifndef FNTRACE_FILTER_H
#define FNTRACE_FILTER_H

#include <stddef.h>

enum glob_type {
	MATCH_FULL,
	MATCH_FRONT_ONLY,
	MATCH_END_ONLY,
	MATCH_MIDDLE_ONLY,
	MATCH_GLOB,
};

struct filter_expr {
	char *text;		/* as written */
	char *pattern;		/* the function part, '*'s stripped unless a glob */
	char *module;		/* NULL: any module */
	enum glob_type type;
	int remove;		/* '!' */
};

struct filter {
	struct filter_expr *v;
	unsigned nr;
	unsigned nr_add;	/* expressions without '!' */
};

/* Where the command of an expression of set_ftrace_filter begins (the
 * kernel's "func:command:param", or "func:mod:M:command:param"): the
 * text after its ':', or NULL if it has none but :mod:.  filter_add()
 * takes none: function triggers are not filters (core/triggers.h). */
const char *filter_command(const char *expr);
/* Parse one expression and append it; -1 with a message in err if bad. */
int filter_add(struct filter *f, const char *expr, char *err, size_t errlen);
/* Parse several, separated by newlines or commas. */
int filter_add_list(struct filter *f, const char *list, char *err, size_t errlen);
void filter_free(struct filter *f);

/* Does the filter select this function of this module? */
int filter_selects(const struct filter *f, const char *func, const char *module);
/* The same for a function known by two names, its symbol and, for C++,
 * the name people write (cxx_name.h; NULL if none): an expression
 * matches if it matches either. */
int filter_selects_as(const struct filter *f, const char *func, const char *plain,
		      const char *module);
int filter_matches_any_as(const struct filter *f, const char *func, const char *plain,
			  const char *module);

/* A full shell-style glob: '*', '?', '[...]' with ranges and '!', '\'. */
int glob_match(const char *pattern, const char *str);
int glob_valid(const char *pattern);

#endif
