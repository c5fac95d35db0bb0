// SPDX-License-Identifier: GPL-2.0
/*
 * The names fntrace ctl and record -p plan a running process's libraries
 * for (src/target/detours_prep.c): the exact function names of a
 * set_ftrace_filter value, not its globs, removals or modules alone.
 */
#include "unit.h"
#include "../../src/target/probe.h"

#include <stdlib.h>
#include <string.h>

static int names_are(const char *value, const char *want)
{
	char *got = probe_exact_names(value);
	int same = want ? got && !strcmp(got, want) : !got;

	free(got);
	return same;
}

int main(void)
{
	CHECK("one name", names_are("crc32", "crc32\n"));
	CHECK("words by blanks and lines", names_are(" crc32\tadler32\ndeflate ",
						     "crc32\nadler32\ndeflate\n"));
	CHECK("the function of func:mod:M", names_are("crc32:mod:libz", "crc32\n"));
	CHECK("the function of a trigger", names_are("crc32:stacktrace:2", "crc32\n"));
	CHECK("no glob", names_are("crc* *32 c?c32 [a]dler32 a\\*b", NULL));
	CHECK("no removal", names_are("!crc32", NULL));
	CHECK("no module alone", names_are(":mod:libz", NULL));
	CHECK("the exact ones among globs", names_are("crc* adler32 !deflate", "adler32\n"));
	CHECK("nothing in blanks", names_are(" \n\t", NULL));
	return unit_done();
}
