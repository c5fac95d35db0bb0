// SPDX-License-Identifier: GPL-2.0
/*
 * libcalc: a recursive-descent evaluator of + - * / and parentheses,
 * so that the demo's function graph has some depth to show.
 */
#include "calc.h"

#include <ctype.h>

struct parser {
	const char *p;
};

static long parse_sum(struct parser *ps);

static void skip_space(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static long parse_number(struct parser *ps)
{
	long v = 0;

	skip_space(ps);
	while (isdigit((unsigned char)*ps->p))
		v = v * 10 + (*ps->p++ - '0');
	return v;
}

static long parse_factor(struct parser *ps)
{
	long v;

	skip_space(ps);
	if (*ps->p != '(')
		return parse_number(ps);
	ps->p++;
	v = parse_sum(ps);
	skip_space(ps);
	if (*ps->p == ')')
		ps->p++;
	return v;
}

static long parse_product(struct parser *ps)
{
	long v = parse_factor(ps);

	for (;;) {
		skip_space(ps);
		if (*ps->p == '*') {
			ps->p++;
			v *= parse_factor(ps);
		} else if (*ps->p == '/') {
			long d;

			ps->p++;
			d = parse_factor(ps);
			v = d ? v / d : 0;
		} else {
			return v;
		}
	}
}

static long parse_sum(struct parser *ps)
{
	long v = parse_product(ps);

	for (;;) {
		skip_space(ps);
		if (*ps->p == '+') {
			ps->p++;
			v += parse_product(ps);
		} else if (*ps->p == '-') {
			ps->p++;
			v -= parse_product(ps);
		} else {
			return v;
		}
	}
}

long calc_eval(const char *expr)
{
	struct parser ps = { expr };

	return parse_sum(&ps);
}
