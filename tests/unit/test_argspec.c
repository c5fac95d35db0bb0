// SPDX-License-Identifier: GPL-2.0
/* Argument specs (record -A/-R, set_ftrace_args): items, types, errors. */
#include "unit.h"
#include "../../src/common/argspec.h"
#include "../../src/common/trace_format.h"

#include <string.h>

static int item_is(const struct arg_spec *s, unsigned i, unsigned type, unsigned pos,
		   unsigned size, unsigned fp)
{
	const struct arg_item *it = &s->items[i];

	return i < s->nr_items && it->type == type && it->pos == pos && it->size == size &&
	       it->fp == fp;
}

/* The message for a bad spec, or "" if it was taken. */
static const char *refusal(const char *text)
{
	static char err[256];
	struct arg_spec s;

	err[0] = '\0';
	if (argspec_parse(&s, text, err, sizeof(err)) == 0)
		argspec_free(&s);
	return err;
}

int main(void)
{
	struct arg_spec s;
	char err[256];

	CHECK("parse: every integer type",
	      argspec_parse(&s, "parse_*@arg1,arg2/x,arg3/s,arg4/c,arg5/p,arg6/i8", err,
			    sizeof(err)) == 0 && s.nr_items == 6 && s.nr_args == 6 &&
	      item_is(&s, 0, FT_ARG_SIGNED, 1, 0, 0) && item_is(&s, 1, FT_ARG_HEX, 2, 0, 0) &&
	      item_is(&s, 2, FT_ARG_STRING, 3, 0, 0) && item_is(&s, 3, FT_ARG_CHAR, 4, 1, 0) &&
	      item_is(&s, 4, FT_ARG_POINTER, 5, 0, 0) && item_is(&s, 5, FT_ARG_SIGNED, 6, 1, 0));
	CHECK("parse: the text is kept, the glob selects",
	      !strcmp(s.text, "parse_*@arg1,arg2/x,arg3/s,arg4/c,arg5/p,arg6/i8") &&
	      filter_selects(&s.glob, "parse_expr", "prog") &&
	      !filter_selects(&s.glob, "main", "prog"));
	argspec_free(&s);

	CHECK("parse: sizes",
	      argspec_parse(&s, "f@arg1/u16,arg2/i32,arg3/u64,arg4/d", err, sizeof(err)) == 0 &&
	      item_is(&s, 0, FT_ARG_UNSIGNED, 1, 2, 0) && item_is(&s, 1, FT_ARG_SIGNED, 2, 4, 0) &&
	      item_is(&s, 2, FT_ARG_UNSIGNED, 3, 8, 0) && item_is(&s, 3, FT_ARG_SIGNED, 4, 0, 0));
	argspec_free(&s);

	CHECK("parse: floating point",
	      argspec_parse(&s, "area@farg1,farg2/f32,retval/f", err, sizeof(err)) == 0 &&
	      s.nr_args == 2 && item_is(&s, 0, FT_ARG_DOUBLE, 1, 8, 1) &&
	      item_is(&s, 1, FT_ARG_FLOAT, 2, 4, 1) && item_is(&s, 2, FT_ARG_DOUBLE, 0, 8, 1));
	argspec_free(&s);

	CHECK("parse: retval, typed and not",
	      argspec_parse(&s, "f*:mod:libz@retval,retval/x", err, sizeof(err)) == 0 &&
	      s.nr_args == 0 && item_is(&s, 0, FT_ARG_SIGNED, 0, 0, 0) &&
	      item_is(&s, 1, FT_ARG_HEX, 0, 0, 0) &&
	      filter_selects(&s.glob, "foo", "libz.so.1") && !filter_selects(&s.glob, "foo", "prog"));
	argspec_free(&s);

	CHECK("parse: names",
	      argspec_parse(&s, "parse@arg1/s:text,farg1:scale,arg2,retval", err,
			    sizeof(err)) == 0 && s.nr_items == 4 &&
	      !strcmp(s.names[0], "text") && !strcmp(s.names[1], "scale") && !s.names[2] &&
	      !s.names[3] && item_is(&s, 0, FT_ARG_STRING, 1, 0, 0) &&
	      item_is(&s, 1, FT_ARG_DOUBLE, 1, 8, 1));
	argspec_free(&s);
	CHECK("parse: fields of a struct, at offsets",
	      argspec_parse(&s, "dist@arg1/i32:p.x,arg1+4/i32:p.y,farg2+4/f32:v[1],arg3+4/f32:t.w",
			    err, sizeof(err)) == 0 && s.nr_items == 4 &&
	      item_is(&s, 0, FT_ARG_SIGNED, 1, 4, 0) && s.items[0].offset == 0 &&
	      item_is(&s, 1, FT_ARG_SIGNED, 1, 4, 0) && s.items[1].offset == 4 &&
	      item_is(&s, 2, FT_ARG_FLOAT, 2, 4, 1) && s.items[2].offset == 4 &&
	      item_is(&s, 3, FT_ARG_FLOAT, 3, 4, 0) && s.items[3].offset == 4 &&
	      !strcmp(s.names[0], "p.x") && !strcmp(s.names[2], "v[1]"));
	argspec_free(&s);
	CHECK("parse: argN as a double is the register's bits",
	      argspec_parse(&s, "f@arg1/f64", err, sizeof(err)) == 0 &&
	      item_is(&s, 0, FT_ARG_DOUBLE, 1, 8, 0));
	argspec_free(&s);
	CHECK("refused: an empty name", strstr(refusal("f@arg1:"), "not a name") != NULL);
	CHECK("refused: a name with a dash", strstr(refusal("f@arg1:a-b"), "not a name") != NULL);
	CHECK("refused: a named return value", strstr(refusal("f@retval/x:r"), "no name") != NULL);
	CHECK("refused: no '@'", strstr(refusal("add3"), "want FUNCTION@") != NULL);
	CHECK("refused: nothing after '@'", strstr(refusal("add3@"), "nothing after") != NULL);
	CHECK("refused: no function", strstr(refusal("@arg1"), "want FUNCTION@") != NULL);
	CHECK("refused: arg0", strstr(refusal("f@arg0"), "N must be 1 to 16") != NULL);
	CHECK("refused: arg17", strstr(refusal("f@arg17"), "N must be 1 to 16") != NULL);
	CHECK("refused: arg1x", strstr(refusal("f@arg1x"), "N must be") != NULL);
	CHECK("refused: an unknown type", strstr(refusal("f@arg1/q"), "no such type") != NULL);
	CHECK("refused: fargN as an integer", strstr(refusal("f@farg1/x"), "no such type") != NULL);
	CHECK("refused: an offset without a size", strstr(refusal("f@arg1+4"), "8 - B") != NULL);
	CHECK("refused: an offset past the register",
	      strstr(refusal("f@arg1+6/i32"), "8 - B") != NULL &&
	      strstr(refusal("f@arg1+8/u8"), "8 - B") != NULL);
	CHECK("refused: an offset on a string", strstr(refusal("f@arg1+8/s"), "8 - B") != NULL);
	CHECK("refused: an offset on retval", strstr(refusal("f@retval+4/i32"), "not argN") != NULL);
	CHECK("refused: a name that starts with a dot", strstr(refusal("f@arg1:.x"), "not a name"));
	CHECK("refused: an unknown value", strstr(refusal("f@ret"), "not argN") != NULL);
	CHECK("refused: '!'", strstr(refusal("!f@arg1"), "'!'") != NULL);
	CHECK("refused: nine values",
	      strstr(refusal("f@arg1,arg2,arg3,arg4,arg5,arg6,arg7,arg8,arg9"), "more than 8"));
	CHECK("refused: the message names the spec",
	      !strncmp(refusal("f@arg1/q"), "bad argument spec 'f@arg1/q': ", 30));
	return unit_done();
}
