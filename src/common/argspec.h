/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Argument specs, as `record -A`/`-R` and the set_ftrace_args control
 * file take them: which values of a function's calls to record.
 *
 *   GLOB@ITEM[,ITEM...]      GLOB: one set_ftrace_filter expression
 *
 *   argN[/T]    the Nth integer argument (1..ARGSPEC_MAX_POS); T is one of
 *               d (signed, the default), x (hex), c (a character),
 *               p (a pointer), s (a string), b (bool), i8 i16 i32 i64,
 *               u8 u16 u32 u64, or f32 f64 (the register's bits)
 *   fargN[/F]   the Nth floating-point argument; F: f64 (the default), f32
 *   retval[/T]  the return value, T as for argN, or f, f64, f32
 *
 * argN+B and fargN+B take the value B bytes into the register, counted
 * from its least significant byte, with a sized T: a field of a struct
 * passed in registers (arg1+4/i32 is the second int of a struct {int x,
 * y;} passed first).  An argument may end with :NAME (argN/T:NAME), what
 * the report calls it: --auto-args names each from the DWARF, a field as
 * p.y or v[1].
 *
 * Shared by the CLI, which checks a spec before the program starts, and
 * the runtime, which applies it.
 */
#ifndef FNTRACE_ARGSPEC_H
#define FNTRACE_ARGSPEC_H

#include <stddef.h>
#include <stdint.h>

#include "filter.h"

#define ARGSPEC_MAX_ITEMS	8	/* values per spec */
#define ARGSPEC_MAX_POS		16	/* highest N of argN / fargN */
#define ARGSPEC_MAX_NAME	63	/* bytes of an item's name */

/* One value to record. */
struct arg_item {
	uint8_t type;		/* enum ft_arg_type (trace_format.h) */
	uint8_t pos;		/* N of argN/fargN; 0: the return value */
	uint8_t size;		/* bytes of an integer (1, 2, 4, 8) */
	uint8_t fp;		/* from the floating-point registers */
	uint8_t offset;		/* bytes into the register (argN+B) */
};

struct arg_spec {
	char *text;		/* as written */
	struct filter glob;	/* one expression */
	struct arg_item items[ARGSPEC_MAX_ITEMS];
	char *names[ARGSPEC_MAX_ITEMS];	/* :NAME of each, or NULL */
	unsigned nr_items;
	unsigned nr_args;	/* items that are arguments, not the return */
};

/* Parse one spec into s (zeroed first); -1 with a one-line message in err. */
int argspec_parse(struct arg_spec *s, const char *text, char *err, size_t errlen);
void argspec_free(struct arg_spec *s);
/* Does s name one function exactly (no glob, no :mod:)?  Its pattern is
 * the name: such specs are found through a hash by it. */
int argspec_one_function(const struct arg_spec *s);

#endif
