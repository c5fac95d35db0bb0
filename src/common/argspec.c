// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing argument specs (argspec.h).  An item's type is one of a few
 * names, looked up in a table; a size of 0 means the program's word.
 */
#include "argspec.h"
#include "trace_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct type_name {
	const char *name;
	uint8_t type, size, fp;
};

static const struct type_name int_types[] = {
	{ "d", FT_ARG_SIGNED, 0, 0 },	{ "x", FT_ARG_HEX, 0, 0 },
	{ "c", FT_ARG_CHAR, 1, 0 },	{ "p", FT_ARG_POINTER, 0, 0 },
	{ "s", FT_ARG_STRING, 0, 0 },	{ "b", FT_ARG_BOOL, 1, 0 },
	{ "i8", FT_ARG_SIGNED, 1, 0 },	{ "i16", FT_ARG_SIGNED, 2, 0 },
	{ "i32", FT_ARG_SIGNED, 4, 0 },	{ "i64", FT_ARG_SIGNED, 8, 0 },
	{ "u8", FT_ARG_UNSIGNED, 1, 0 },	{ "u16", FT_ARG_UNSIGNED, 2, 0 },
	{ "u32", FT_ARG_UNSIGNED, 4, 0 },	{ "u64", FT_ARG_UNSIGNED, 8, 0 },
	{ NULL, 0, 0, 0 }
};

static const struct type_name fp_types[] = {
	{ "f", FT_ARG_DOUBLE, 8, 1 },	{ "f64", FT_ARG_DOUBLE, 8, 1 },
	{ "f32", FT_ARG_FLOAT, 4, 1 },
	{ NULL, 0, 0, 0 }
};

static const struct type_name *find_type(const struct type_name *table, const char *name)
{
	for (; table->name; table++)
		if (!strcmp(table->name, name))
			return table;
	return NULL;
}

/* "N" or "N+B" of argN: N 1..ARGSPEC_MAX_POS, B into *offset; 0 if it is
 * not one. */
static unsigned parse_pos(const char *s, unsigned *offset)
{
	char *end;
	unsigned long n, b = 0;

	if (*s < '1' || *s > '9')
		return 0;
	n = strtoul(s, &end, 10);
	if (*end == '+' && end[1] >= '0' && end[1] <= '9')
		b = strtoul(end + 1, &end, 10);
	*offset = b < 8 ? (unsigned)b : 8;
	return *end || n > ARGSPEC_MAX_POS ? 0 : (unsigned)n;
}

/* What an item of the given kind may be typed as, and its default: an
 * integer register's bits may be read as a float too, for a struct's
 * float field that shares the register with an int. */
static const struct type_name *item_type(const char *kind, const char *type)
{
	static const struct type_name word = { "d", FT_ARG_SIGNED, 0, 0 };
	static const struct type_name dbl = { "f64", FT_ARG_DOUBLE, 8, 1 };
	int fp = !strncmp(kind, "farg", 4);

	if (!type)
		return fp ? &dbl : &word;
	if (fp || (!strcmp(kind, "retval") && find_type(fp_types, type)))
		return find_type(fp_types, type);
	return find_type(int_types, type) ? find_type(int_types, type) : find_type(fp_types, type);
}

/* An offset needs a size it fits with: B + size <= 8. */
static int check_offset(const struct arg_item *it, const char *text, char *err, size_t errlen)
{
	if (!it->offset)
		return 0;
	if (it->offset >= 8 || !it->size || it->offset + it->size > 8) {
		snprintf(err, errlen, "'%s': a value B bytes in needs a type of at most "
			 "8 - B bytes (i8..i64, u8..u64, c, b, f32)", text);
		return -1;
	}
	return 0;
}

static int parse_item(struct arg_item *it, char *text, char *err, size_t errlen)
{
	char *type = strchr(text, '/');
	const struct type_name *t;
	unsigned pos = 0, offset = 0;

	if (type)
		*type++ = '\0';
	if (!strncmp(text, "arg", 3))
		pos = parse_pos(text + 3, &offset);
	else if (!strncmp(text, "farg", 4))
		pos = parse_pos(text + 4, &offset);
	else if (strcmp(text, "retval")) {
		snprintf(err, errlen, "'%s': not argN, fargN or retval", text);
		return -1;
	}
	if (!pos && strcmp(text, "retval")) {
		snprintf(err, errlen, "'%s': N must be 1 to %d", text, ARGSPEC_MAX_POS);
		return -1;
	}
	t = item_type(text, type);
	if (!t) {
		snprintf(err, errlen, "'%s/%s': no such type", text, type);
		return -1;
	}
	/* argN/f32 is read from the integer register, whatever the type. */
	*it = (struct arg_item) { .type = t->type, .pos = pos, .size = t->size,
				  .fp = t->fp && strncmp(text, "arg", 3), .offset = offset };
	return check_offset(it, text, err, errlen);
}

/* An item's ":NAME", split off tok, for the report: a C identifier, or
 * a field's path (p.pos.x, v[1]). */
static int parse_name(struct arg_spec *s, char *tok, char *err, size_t errlen)
{
	char *name = strchr(tok, ':');
	size_t len;

	if (!name)
		return 0;
	*name++ = '\0';
	len = strlen(name);
	if (!len || len > ARGSPEC_MAX_NAME || strspn(name, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[]") != len ||
	    !strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_", *name)) {
		snprintf(err, errlen, "'%s': not a name", name);
		return -1;
	}
	if (!strncmp(tok, "retval", 6)) {
		snprintf(err, errlen, "the return value has no name");
		return -1;
	}
	s->names[s->nr_items] = strdup(name);
	return s->names[s->nr_items] ? 0 : -1;
}

static int parse_items(struct arg_spec *s, char *list, char *err, size_t errlen)
{
	char *save = NULL;

	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (s->nr_items == ARGSPEC_MAX_ITEMS) {
			snprintf(err, errlen, "more than %d values", ARGSPEC_MAX_ITEMS);
			return -1;
		}
		if (parse_name(s, tok, err, errlen) ||
		    parse_item(&s->items[s->nr_items], tok, err, errlen))
			return -1;
		s->nr_args += s->items[s->nr_items++].pos != 0;
	}
	if (!s->nr_items) {
		snprintf(err, errlen, "nothing after '@'");
		return -1;
	}
	return 0;
}

static int parse_spec(struct arg_spec *s, char *copy, char *err, size_t errlen)
{
	char *at = strrchr(copy, '@');

	if (!at || at == copy) {
		snprintf(err, errlen, "want FUNCTION@arg1,... or FUNCTION@retval");
		return -1;
	}
	*at = '\0';
	if (filter_add(&s->glob, copy, err, errlen))
		return -1;
	if (s->glob.v[0].remove) {
		snprintf(err, errlen, "'!' does not apply here");
		return -1;
	}
	return parse_items(s, at + 1, err, errlen);
}

int argspec_parse(struct arg_spec *s, const char *text, char *err, size_t errlen)
{
	char msg[160], *copy = strdup(text);
	int ret;

	memset(s, 0, sizeof(*s));
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ret = parse_spec(s, copy, msg, sizeof(msg));
	free(copy);
	s->text = ret ? NULL : strdup(text);
	if (!ret && !s->text) {
		snprintf(msg, sizeof(msg), "out of memory");
		ret = -1;
	}
	if (ret) {
		snprintf(err, errlen, "bad argument spec '%s': %s", text, msg);
		argspec_free(s);
	}
	return ret;
}

void argspec_free(struct arg_spec *s)
{
	for (unsigned i = 0; i < ARGSPEC_MAX_ITEMS; i++)
		free(s->names[i]);
	free(s->text);
	filter_free(&s->glob);
	memset(s, 0, sizeof(*s));
}

int argspec_one_function(const struct arg_spec *s)
{
	return s->glob.v[0].type == MATCH_FULL && !s->glob.v[0].module;
}
