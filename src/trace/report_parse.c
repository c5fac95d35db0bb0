// SPDX-License-Identifier: GPL-2.0
/*
 * The values of report's options as typed on the command line: times,
 * ranges, sort keys and the graph view's -O names.  Each parser takes the
 * whole text or nothing, so "5parsecs" or "2ms~" with a stray byte is an
 * error, not a prefix read and the rest ignored.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#define NS_PER_SEC	1000000000ull

/* Digits, then optionally '.' and more; the fraction as nanoseconds of
 * one unit is scaled by the caller.  *end is where the number stops. */
struct number {
	uint64_t whole;
	uint64_t frac;		/* the fraction's digits, 9 at most ... */
	unsigned frac_digits;	/* ... and how many there were */
	int has_point;
};

static const char *read_number(const char *s, struct number *n)
{
	const char *start = s;

	*n = (struct number) { 0 };
	for (; *s >= '0' && *s <= '9'; s++) {
		uint64_t digit = (uint64_t)(*s - '0');

		if (n->whole > UINT64_MAX / 10 || n->whole * 10 > UINT64_MAX - digit)
			return NULL;
		n->whole = n->whole * 10 + digit;
	}
	if (*s == '.') {
		n->has_point = 1;
		for (s++; *s >= '0' && *s <= '9'; s++)
			if (n->frac_digits < 9) {
				n->frac = n->frac * 10 + (uint64_t)(*s - '0');
				n->frac_digits++;
			}
	}
	/* "." alone, or nothing at all, is not a number. */
	if (s == start || (n->has_point && s == start + 1))
		return NULL;
	return s;
}

/* whole.frac units of unit_ns nanoseconds each, or -1 on overflow. */
static int scale(const struct number *n, uint64_t unit_ns, uint64_t *ns)
{
	uint64_t frac = n->frac * unit_ns;

	if (n->whole > UINT64_MAX / unit_ns)
		return -1;
	for (unsigned i = 0; i < n->frac_digits; i++)
		frac /= 10;
	if (n->whole * unit_ns > UINT64_MAX - frac)
		return -1;
	*ns = n->whole * unit_ns + frac;
	return 0;
}

static uint64_t unit_of(const char *s)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", NS_PER_SEC },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(s, units[i].name))
			return units[i].ns;
	return 0;
}

int report_parse_duration(const char *text, uint64_t *ns)
{
	struct number n;
	const char *rest = read_number(text, &n);
	uint64_t unit;

	if (!rest)
		return -1;
	/* A bare number is nanoseconds, which have no fraction. */
	unit = *rest ? unit_of(rest) : (n.has_point ? 0 : 1);
	return unit ? scale(&n, unit, ns) : -1;
}

/* One end of a range: a duration, or seconds with a fraction and no
 * unit ("123.456789") for an absolute time. */
static int report_parse_time(const char *text, struct report_time *t)
{
	struct number n;
	const char *rest = read_number(text, &n);

	*t = (struct report_time) { .set = 1 };
	/* Seconds with a fraction and no unit: the abstime column's form. */
	if (rest && !*rest && n.has_point) {
		t->absolute = 1;
		return scale(&n, NS_PER_SEC, &t->ns);
	}
	return report_parse_duration(text, &t->ns);
}

int report_parse_range(const char *text, struct report_time *from,
		       struct report_time *to)
{
	const char *tilde = strchr(text, '~');
	char *start;
	int bad;

	*from = *to = (struct report_time) { 0 };
	if (!tilde || strchr(tilde + 1, '~') || (tilde == text && !tilde[1]))
		return -1;
	start = strndup(text, (size_t)(tilde - text));
	if (!start)
		return -1;
	bad = (*start && report_parse_time(start, from)) ||
	      (tilde[1] && report_parse_time(tilde + 1, to));
	free(start);
	if (bad)
		return -1;
	/* Ends of different kinds are compared once the trace is open. */
	if (from->set && to->set && from->absolute == to->absolute && to->ns < from->ns)
		return -1;
	return 0;
}

int report_parse_sort(const char *text, struct report_options *o)
{
	static const char *const keys[] = {
		[REPORT_SORT_TOTAL] = "total", [REPORT_SORT_SELF] = "self",
		[REPORT_SORT_HITS] = "hits", [REPORT_SORT_AVG] = "avg",
		[REPORT_SORT_NAME] = "name",
	};
	const char *s = text;

	o->nr_sort = 0;
	for (;;) {
		size_t len = strcspn(s, ",");
		unsigned k = 0;

		while (k < sizeof(keys) / sizeof(keys[0]) &&
		       (strlen(keys[k]) != len || strncmp(keys[k], s, len)))
			k++;
		if (k == sizeof(keys) / sizeof(keys[0]) || o->nr_sort == REPORT_SORT_MAX)
			return -1;
		o->sort[o->nr_sort++] = (enum report_sort_key)k;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

int report_parse_show(const char *text, struct report_options *o)
{
	static const struct { const char *name; unsigned bit; } names[] = {
		{ "abstime", REPORT_SHOW_ABSTIME }, { "cpu", REPORT_SHOW_CPU },
		{ "proc", REPORT_SHOW_PROC }, { "duration", REPORT_SHOW_DURATION },
		{ "tail", REPORT_SHOW_TAIL }, { "retval", REPORT_SHOW_RETVAL },
	};
	int off = !strncmp(text, "no", 2);
	const char *name = off ? text + 2 : text;

	/* The kernel's own names are accepted too: funcgraph-abstime. */
	if (!strncmp(name, "funcgraph-", 10))
		name += 10;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i].name))
			continue;
		if (off) {
			o->show_off |= names[i].bit;
			o->show_on &= ~names[i].bit;
		} else {
			o->show_on |= names[i].bit;
			o->show_off &= ~names[i].bit;
		}
		return 0;
	}
	return -1;
}

unsigned report_show(const struct report_options *o)
{
	return (REPORT_SHOW_DEFAULT | o->show_on) & ~o->show_off;
}
