// SPDX-License-Identifier: GPL-2.0
/*
 * Shell-style glob matching, as the kernel's glob_match(): '*', '?',
 * bracket expressions with ranges and '!' or '^' negation, '\' escapes.
 */
#include "filter.h"

#include <string.h>

/* Match one bracket expression at *pp against c; advance *pp past ']'. */
static int match_bracket(const char **pp, unsigned char c)
{
	const char *p = *pp + 1;
	int negate = *p == '!' || *p == '^', found = 0;

	if (negate)
		p++;
	/* A ']' right after the '[' (or the negation) is a member. */
	do {
		unsigned char lo = *p, hi = lo;

		if (lo == '\\' && p[1])
			lo = hi = *++p;
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = p[2];
			p += 2;
		}
		if (lo <= c && c <= hi)
			found = 1;
		p++;
	} while (*p && *p != ']');
	*pp = *p ? p + 1 : p;
	return found != negate;
}

int glob_match(const char *pat, const char *str)
{
	const char *star_pat = NULL, *star_str = NULL;

	while (*str) {
		const char *p = pat;
		int ok;

		switch (*p) {
		case '*':
			star_pat = ++pat;
			star_str = str;
			continue;
		case '?':
			ok = 1;
			p++;
			break;
		case '[':
			ok = match_bracket(&p, (unsigned char)*str);
			break;
		case '\\':
			if (p[1])
				p++;
			/* fall through */
		default:
			ok = *p == *str;
			p += *p != '\0';
		}
		if (ok) {
			pat = p;
			str++;
			continue;
		}
		if (!star_pat)
			return 0;
		/* Let the last '*' swallow one more character and retry. */
		pat = star_pat;
		str = ++star_str;
	}
	while (*pat == '*')
		pat++;
	return *pat == '\0';
}

int glob_valid(const char *pat)
{
	for (; *pat; pat++) {
		if (*pat == '\\' && pat[1]) {
			pat++;
		} else if (*pat == '[') {
			const char *close = pat + 1;

			if (*close == '!' || *close == '^')
				close++;
			if (*close == ']')
				close++;
			close = strchr(close, ']');
			if (!close)
				return 0;
			pat = close;
		}
	}
	return 1;
}
