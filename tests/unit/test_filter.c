// SPDX-License-Identifier: GPL-2.0
/* The set_ftrace_filter syntax: globs, match types, '!', :mod:. */
#include "unit.h"
#include "../../src/common/filter.h"

#include <string.h>

static int selects(const char *list, const char *func, const char *module)
{
	struct filter f = { 0 };
	char err[128];
	int r;

	if (filter_add_list(&f, list, err, sizeof(err)))
		return -1;
	r = filter_selects(&f, func, module);
	filter_free(&f);
	return r;
}

static int rejects(const char *expr)
{
	struct filter f = { 0 };
	char err[128] = "";
	int r = filter_add(&f, expr, err, sizeof(err));

	filter_free(&f);
	return r == -1 && err[0];
}

static void test_glob(void)
{
	CHECK("glob: star", glob_match("pa*_x", "parse_x"));
	CHECK("glob: star matches empty", glob_match("a*b", "ab"));
	CHECK("glob: question", glob_match("f?b", "fib") && !glob_match("f?b", "fb"));
	CHECK("glob: bracket range", glob_match("[a-c]x", "bx") && !glob_match("[a-c]x", "dx"));
	CHECK("glob: bracket negation", glob_match("[!a]x", "bx") && !glob_match("[!a]x", "ax"));
	CHECK("glob: escape", glob_match("a\\*", "a*") && !glob_match("a\\*", "ab"));
	CHECK("glob: backtracking", glob_match("*ab*ab", "xabyabab"));
	CHECK("glob: no match", !glob_match("abc", "abd"));
	CHECK("glob: unclosed bracket invalid", !glob_valid("a[bc"));
	CHECK("glob: closed bracket valid", glob_valid("a[]b]c"));
}

static void test_match_types(void)
{
	CHECK("filter: exact", selects("main", "main", NULL) == 1 && selects("main", "mainx", NULL) == 0);
	CHECK("filter: prefix", selects("parse_*", "parse_sum", NULL) == 1 && selects("parse_*", "xparse_", NULL) == 0);
	CHECK("filter: suffix", selects("*_sum", "parse_sum", NULL) == 1 && selects("*_sum", "sum_x", NULL) == 0);
	CHECK("filter: middle", selects("*ars*", "parse", NULL) == 1 && selects("*ars*", "pase", NULL) == 0);
	CHECK("filter: inner star is a glob", selects("p*_sum", "parse_sum", NULL) == 1);
	CHECK("filter: empty selects all", selects("", "anything", NULL) == 1);
	CHECK("filter: star selects all", selects("*", "anything", NULL) == 1);
}

static void test_remove_and_modules(void)
{
	CHECK("filter: add then remove", selects("parse_*\n!parse_sum", "parse_sum", NULL) == 0 &&
					  selects("parse_*\n!parse_sum", "parse_x", NULL) == 1);
	CHECK("filter: only removals start from all", selects("!fib", "main", NULL) == 1 &&
						     selects("!fib", "fib", NULL) == 0);
	CHECK("filter: :mod: by file name", selects("parse_*:mod:libcalc.so", "parse_sum", "libcalc.so") == 1);
	CHECK("filter: :mod: by stem", selects("*:mod:libcalc", "parse_sum", "libcalc.so.1") == 1);
	CHECK("filter: :mod: other module", selects("*:mod:libcalc", "parse_sum", "demo") == 0);
	CHECK("filter: :mod:M alone, every function of M (the kernel's)",
	      selects(":mod:libcalc", "parse_sum", "libcalc.so") == 1 &&
	      selects(":mod:libcalc", "parse_sum", "demo") == 0);
	CHECK("filter: ... and !:mod:M removes them", selects("*,!:mod:libcalc", "parse_sum", "libcalc.so") == 0);
	CHECK("filter: comma list", selects("a,b", "b", NULL) == 1);
	CHECK("filter: a C++ name's :: is no command", selects("Gen::next", "Gen::next", NULL) == 1);
	CHECK("filter: a C++ glob's ::", selects("ns::*::get", "ns::Cls::get", NULL) == 1);
	CHECK("filter: :mod: after a C++ name", selects("Gen::*:mod:libgen", "Gen::next", "libgen.so") == 1 &&
						selects("Gen::*:mod:libgen", "Gen::next", "demo") == 0);
}

static void test_errors(void)
{
	CHECK("filter: empty expression rejected", rejects("!"));
	CHECK("filter: bad glob rejected", rejects("foo[bar"));
	CHECK("filter: unknown command rejected", rejects("foo:traceon:1"));
	CHECK("filter: empty module rejected", rejects("foo:mod:"));
	CHECK("filter: unknown command after a C++ name rejected", rejects("Gen::next:bogus:1"));
}

int main(void)
{
	test_glob();
	test_match_types();
	test_remove_and_modules();
	test_errors();
	return unit_done();
}
