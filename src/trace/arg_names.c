// SPDX-License-Identifier: GPL-2.0
/*
 * The names of recorded values, from the specs in a data directory's
 * args file.  A value is named by the spec item with its position,
 * register class (fargN or argN), offset into the register and type;
 * specs that name one function exactly (all of --auto-args') are found
 * by name through a hash, the others tried in turn.  An enum's value is
 * named from the enums file --auto-args writes beside: FUNC, POS, VALUE
 * and NAME on a line, tab-separated.
 */
#include "arg_names.h"
#include "demangle.h"
#include "../common/argspec.h"
#include "../common/array.h"
#include "../common/fileio.h"
#include "../common/hash.h"
#include "../common/trace_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An enum's value by name: a line of the data directory's enums file. */
struct enum_value {
	const char *func;	/* demangled, malloc'd */
	unsigned pos;		/* 1.. an argument, 0 the return value */
	int64_t value;
	const char *name;
};

struct tr_arg_names {
	struct arg_spec *specs;
	char **keys;		/* per spec: the function it names exactly, as
				 * the reader names it (demangled), or NULL */
	unsigned nr;
	uint32_t *by_name;	/* spec index + 1, 0 empty; nr_slots a power of 2 */
	size_t nr_slots;
	char *enums_text;	/* the enums file, cut into the strings below */
	struct enum_value *enums;	/* sorted by func, pos, value */
	size_t nr_enums;
};

static int has_names(const struct arg_spec *s)
{
	for (unsigned i = 0; i < s->nr_items; i++)
		if (s->names[i])
			return 1;
	return 0;
}

/* Each line of text that parses and names something. */
static int add_specs(struct tr_arg_names *n, char *text)
{
	char *save = NULL, err[256];

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct arg_spec *grown = realloc(n->specs, (n->nr + 1) * sizeof(*grown));

		if (!grown)
			return -1;
		n->specs = grown;
		if (argspec_parse(&grown[n->nr], line, err, sizeof(err)) == 0 &&
		    has_names(&grown[n->nr]))
			n->nr++;
		else
			argspec_free(&grown[n->nr]);
	}
	return 0;
}

/* The reader's functions have demangled names: so do the keys. */
static int index_names(struct tr_arg_names *n)
{
	n->nr_slots = 16;
	while (n->nr_slots < 2 * (size_t)n->nr)
		n->nr_slots *= 2;
	n->by_name = calloc(n->nr_slots, sizeof(*n->by_name));
	n->keys = calloc(n->nr, sizeof(*n->keys));
	if (!n->by_name || !n->keys)
		return -1;
	for (unsigned i = 0; i < n->nr; i++) {
		size_t k;

		if (!argspec_one_function(&n->specs[i]))
			continue;
		n->keys[i] = demangle(n->specs[i].glob.v[0].pattern);
		if (!n->keys[i])
			return -1;
		for (k = fnv1a_str(n->keys[i]) & (n->nr_slots - 1); n->by_name[k];
		     k = (k + 1) & (n->nr_slots - 1))
			;
		n->by_name[k] = i + 1;
	}
	return 0;
}

static int enum_cmp(const struct enum_value *a, const struct enum_value *b)
{
	int c = strcmp(a->func, b->func);

	if (c)
		return c;
	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	return a->value < b->value ? -1 : a->value > b->value;
}

static int by_enum(const void *a, const void *b)
{
	return enum_cmp(a, b);
}

/* One "FUNC\tPOS\tVALUE\tNAME" line into e; -1 if it is not one. */
static int parse_enum(char *line, struct enum_value *e)
{
	char *f[4], *save = NULL, *end;
	unsigned i;

	for (i = 0; i < 4 && (f[i] = strtok_r(i ? NULL : line, "\t", &save)); i++)
		;
	if (i < 4)
		return -1;
	e->pos = (unsigned)strtoul(f[1], &end, 10);
	e->value = strtoll(f[2], NULL, 10);
	e->name = f[3];
	e->func = *end ? NULL : demangle(f[0]);
	return e->func ? 0 : -1;
}

static int load_enums(struct tr_arg_names *n, const char *dir)
{
	char path[4200], *save = NULL;
	size_t cap = 0;

	snprintf(path, sizeof(path), "%s/enums", dir);
	n->enums_text = read_text_file(path);
	for (char *line = n->enums_text ? strtok_r(n->enums_text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (grow_array((void **)&n->enums, &cap, n->nr_enums + 1, sizeof(*n->enums)))
			return -1;
		n->nr_enums += parse_enum(line, &n->enums[n->nr_enums]) == 0;
	}
	if (n->nr_enums)
		qsort(n->enums, n->nr_enums, sizeof(*n->enums), by_enum);
	return 0;
}

struct tr_arg_names *tr_arg_names_load(const char *dir)
{
	char path[4200], *text;
	struct tr_arg_names *n;

	snprintf(path, sizeof(path), "%s/args", dir);
	text = read_text_file(path);
	n = text ? calloc(1, sizeof(*n)) : NULL;
	if (n && (add_specs(n, text) || !n->nr || index_names(n) || load_enums(n, dir))) {
		tr_arg_names_free(n);
		n = NULL;
	}
	free(text);
	return n;
}

const char *tr_arg_enum(const struct tr_arg_names *n, const char *func, const struct tr_arg *a)
{
	struct enum_value key = { func, a->pos, 0, NULL };
	const struct enum_value *e;

	/* Only a signed item has two value words: a string may have one. */
	if (!n || !func || !n->nr_enums || a->type != FT_ARG_SIGNED)
		return NULL;
	key.value = (int64_t)tr_arg_integer(a);
	e = bsearch(&key, n->enums, n->nr_enums, sizeof(*e), by_enum);
	return e ? e->name : NULL;
}

void tr_arg_names_free(struct tr_arg_names *n)
{
	if (!n)
		return;
	for (unsigned i = 0; i < n->nr; i++) {
		argspec_free(&n->specs[i]);
		free(n->keys ? n->keys[i] : NULL);
	}
	for (size_t i = 0; i < n->nr_enums; i++)
		free((char *)n->enums[i].func);
	free(n->keys);
	free(n->specs);
	free(n->by_name);
	free(n->enums);
	free(n->enums_text);
	free(n);
}

/* Is a the value item it asked for?  The type tells apart the members of
 * a union, which share a register and an offset. */
static int item_of(const struct arg_item *it, const struct tr_arg *a)
{
	unsigned type = a->type == FT_ARG_BAD_STRING ? FT_ARG_STRING : a->type;

	return it->pos == a->pos && it->fp == a->in_fp && it->offset == a->offset &&
	       it->type == type;
}

/* The name spec s gives a, or NULL. */
static const char *spec_name(const struct arg_spec *s, const struct tr_arg *a)
{
	for (unsigned i = 0; i < s->nr_items; i++)
		if (s->names[i] && item_of(&s->items[i], a))
			return s->names[i];
	return NULL;
}

const char *tr_arg_name(const struct tr_arg_names *n, const char *func, const struct tr_arg *a)
{
	const char *name = NULL;

	if (!n || !func || !a->pos)
		return NULL;
	for (size_t k = fnv1a_str(func) & (n->nr_slots - 1); !name && n->by_name[k];
	     k = (k + 1) & (n->nr_slots - 1))
		if (!strcmp(n->keys[n->by_name[k] - 1], func))
			name = spec_name(&n->specs[n->by_name[k] - 1], a);
	for (unsigned i = 0; !name && i < n->nr; i++)
		if (!argspec_one_function(&n->specs[i]) && filter_selects(&n->specs[i].glob, func, ""))
			name = spec_name(&n->specs[i], a);
	return name;
}

const char *tr_arg_value_text(const struct tr_arg_names *n, const char *func,
			      const struct tr_arg *a, char *buf)
{
	const char *name = tr_arg_enum(n, func, a);

	if (name)
		return name;
	tr_arg_format(a, buf, TR_ARG_TEXT_MAX);
	return buf;
}

_Static_assert(TR_ARG_KEY_MAX > ARGSPEC_MAX_NAME, "a name fits where a key goes");

void tr_arg_keyer_init(struct tr_arg_keyer *k, const struct tr_arg_names *n, const char *func)
{
	k->names = n;
	k->func = func;
	k->nr_taken = 0;
}

static int taken(const struct tr_arg_keyer *k, const char *name)
{
	for (unsigned i = 0; i < k->nr_taken; i++)
		if (!strcmp(k->taken[i], name))
			return 1;
	return 0;
}

const char *tr_arg_keyer_key(struct tr_arg_keyer *k, const struct tr_arg *a, char *buf)
{
	const char *name = k->names && k->func ? tr_arg_name(k->names, k->func, a) : NULL;

	if (!name || taken(k, name) || k->nr_taken == TR_ARG_KEYER_NAMES)
		return tr_arg_key(a, buf, TR_ARG_KEY_MAX);
	k->taken[k->nr_taken++] = name;
	return name;
}
