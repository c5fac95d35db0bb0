/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values of an FT_LONG_ARGS event (../common/trace_format.h) as text,
 * the same in the report and in every export:
 *
 *   signed, unsigned  decimal, once truncated to the item's size and
 *                     extended: -5, 255
 *   hex               0x1f
 *   char              'a', '\'', '\n', '\x01'
 *   pointer           0x7ffd1230; NULL is 0x0, the same hex as any other
 *   double, float     the shortest decimal that reads back as the same
 *                     value: 0.1, 3.5, -2, inf
 *   string            "a\"b\n\xff" (\" \\ \n \t, other bytes below 0x20
 *                     or from 0x7f as \xNN), and ... after the closing
 *                     quote if the program's string was longer
 *   bad string        (null), or 0x1234 (unreadable)
 *   unknown type      ?
 *
 * Every text is ASCII, whatever the bytes of the program's strings.
 * Items are read only within the event's words: the first one that runs
 * past them ends the list, so a damaged event shows less, never more.
 */
#ifndef FNTRACE_TRACE_ARGS_H
#define FNTRACE_TRACE_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* Room for any one value, NUL included: 255 bytes of \xNN and more. */
#define TR_ARG_TEXT_MAX		1040
/* What the report gives a call's whole list: longer ones end in "...". */
#define TR_ARGS_TEXT_LEN	1024
/* "arg255_65535", or a value's 63-byte name, NUL included. */
#define TR_ARG_KEY_MAX		64

struct tr_arg {
	unsigned type;		/* FT_ARG_* */
	unsigned pos;		/* 1.. the argument, 0 the return value */
	unsigned size;		/* an integer's bytes, a string's length */
	int truncated;		/* a string that was cut */
	unsigned offset;	/* bytes into its register (a struct's field) */
	int in_fp;		/* taken from a floating-point register */
	const uint32_t *value;	/* its words */
	unsigned nth;		/* 1, or 2... for a position seen before */
};

struct tr_args_iter {
	const uint32_t *words;
	uint32_t nr, at;
	uint16_t seen[256];	/* items so far, per position */
};

void tr_args_iter_init(struct tr_args_iter *it, const uint32_t *words, uint32_t nr);
/* 1 and the next item in *a, or 0 at the end of those that fit. */
int tr_args_next(struct tr_args_iter *it, struct tr_arg *a);

/* The item's value as text in buf, cut with "..." if size is too small;
 * returns its length. */
size_t tr_arg_format(const struct tr_arg *a, char *buf, size_t size);
/* Every value of the nr words of items, ", " between them, as above. */
size_t tr_args_format(const uint32_t *words, uint32_t nr, char *buf, size_t size);
/* What a value is called, and the name of its value where it is an enum's
 * (NULL: none). */
struct tr_arg_label {
	const char *name, *value;
};

typedef void (*tr_arg_labeler)(const void *ctx, const struct tr_arg *a,
			       struct tr_arg_label *out);
/* The same, "NAME=" before each value the labeler names, and an enum's
 * value by its name. */
size_t tr_args_format_named(const uint32_t *words, uint32_t nr, tr_arg_labeler labeler,
			    const void *ctx, char *buf, size_t size);
/* An integer item's value, truncated to its size and extended. */
uint64_t tr_arg_integer(const struct tr_arg *a);
/* The name an export gives the item: "arg2", "retval", and "_2" after a
 * position named before, so that no two are the same. */
const char *tr_arg_key(const struct tr_arg *a, char *buf, size_t size);

#endif
