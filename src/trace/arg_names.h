/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the specs a recording was made with (the data directory's args
 * file: -A, -R, --auto-args) call each value: "s" in parse@arg1/s:s; and
 * the names of enum values (its enums file, from --auto-args).
 */
#ifndef FNTRACE_ARG_NAMES_H
#define FNTRACE_ARG_NAMES_H

#include "trace_args.h"

struct tr_arg_names;

/* The names in dir's args file; NULL if it has none (or none is kept). */
struct tr_arg_names *tr_arg_names_load(const char *dir);
void tr_arg_names_free(struct tr_arg_names *n);
/* The name of function func's value a, or NULL. */
const char *tr_arg_name(const struct tr_arg_names *n, const char *func, const struct tr_arg *a);
/* The name of a's value, if its type is an enum that has one, or NULL. */
const char *tr_arg_enum(const struct tr_arg_names *n, const char *func, const struct tr_arg *a);
/* a's value as the report shows it: its enum's name, or its text in buf
 * (TR_ARG_TEXT_MAX bytes). */
const char *tr_arg_value_text(const struct tr_arg_names *n, const char *func,
			      const struct tr_arg *a, char *buf);

/*
 * The keys an export gives one call's values, in turn: each value's name
 * where the specs give one that no value before it in the call took
 * (a spec of -A and one of --auto-args may name the same register),
 * else tr_arg_key()'s "arg2", "retval".
 */
#define TR_ARG_KEYER_NAMES 16

struct tr_arg_keyer {
	const struct tr_arg_names *names;	/* may be NULL */
	const char *func;
	const char *taken[TR_ARG_KEYER_NAMES];
	unsigned nr_taken;
};

void tr_arg_keyer_init(struct tr_arg_keyer *k, const struct tr_arg_names *n, const char *func);
/* a's key, in buf (TR_ARG_KEY_MAX bytes) or the names' own memory. */
const char *tr_arg_keyer_key(struct tr_arg_keyer *k, const struct tr_arg *a, char *buf);

#endif
