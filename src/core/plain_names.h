/* SPDX-License-Identifier: GPL-2.0 */
/*
 * C++ records' names as people write them, for the filters (plain_names.c).
 */
#ifndef FNTRACE_PLAIN_NAMES_H
#define FNTRACE_PLAIN_NAMES_H

struct filter;
struct ftrace_rec;

/* Look up the program's demangler: before a filter is used, outside the
 * pinned update. */
void ft_plain_names_prepare(void);
/* "Gen::next" for a record of _ZN3Gen4nextEv, when filter f has
 * expressions to match it against; NULL otherwise (a C name, no
 * demangler, an empty filter).  Under ftrace_lock. */
const char *ft_plain_name(const struct filter *f, const struct ftrace_rec *rec);

#endif
