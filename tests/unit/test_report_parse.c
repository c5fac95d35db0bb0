// SPDX-License-Identifier: GPL-2.0
/* report's option values: durations, time ranges, sort keys, -O names. */
#include "unit.h"
#include "../../src/trace/report.h"

#include <string.h>

static int duration_is(const char *text, uint64_t want)
{
	uint64_t ns = 12345;

	return report_parse_duration(text, &ns) == 0 && ns == want;
}

static int bad_duration(const char *text)
{
	uint64_t ns = 12345;

	return report_parse_duration(text, &ns) == -1;
}

static void test_durations(void)
{
	CHECK("duration: a bare number is ns", duration_is("750", 750));
	CHECK("duration: ns", duration_is("500ns", 500));
	CHECK("duration: us", duration_is("100us", 100000));
	CHECK("duration: ms", duration_is("2ms", 2000000));
	CHECK("duration: s", duration_is("1s", 1000000000));
	CHECK("duration: a fraction of a unit", duration_is("1.5ms", 1500000));
	CHECK("duration: a fraction's tenth digit is dropped",
	      duration_is("0.0000000019s", 1));
	CHECK("duration: zero", duration_is("0", 0));
	CHECK("duration: an unknown unit", bad_duration("5parsecs"));
	CHECK("duration: a unit alone", bad_duration("ms"));
	CHECK("duration: empty", bad_duration(""));
	CHECK("duration: negative", bad_duration("-1ms"));
	CHECK("duration: a fraction of a ns", bad_duration("1.5"));
	CHECK("duration: a point alone", bad_duration(".s"));
	CHECK("duration: trailing bytes", bad_duration("2ms "));
	CHECK("duration: upper-case unit", bad_duration("2MS"));
	CHECK("duration: too big for 64 bits", bad_duration("18446744073709551616"));
	CHECK("duration: too many seconds", bad_duration("18446744074s"));
	CHECK("duration: the largest", duration_is("18446744073709551615",
						   18446744073709551615ull));
}

static int range_is(const char *text, struct report_time from, struct report_time to)
{
	struct report_time f, t;

	return report_parse_range(text, &f, &t) == 0 &&
	       f.set == from.set && f.absolute == from.absolute && f.ns == from.ns &&
	       t.set == to.set && t.absolute == to.absolute && t.ns == to.ns;
}

static int bad_range(const char *text)
{
	struct report_time f, t;

	return report_parse_range(text, &f, &t) == -1;
}

#define REL(n)		((struct report_time) { .ns = (n), .set = 1 })
#define ABS(n)		((struct report_time) { .ns = (n), .set = 1, .absolute = 1 })
#define OPEN		((struct report_time) { 0 })

static void test_ranges(void)
{
	CHECK("range: relative both sides", range_is("1ms~2ms", REL(1000000), REL(2000000)));
	CHECK("range: open start", range_is("~2s", OPEN, REL(2000000000)));
	CHECK("range: open end", range_is("1s~", REL(1000000000), OPEN));
	CHECK("range: an empty range is one instant", range_is("5us~5us", REL(5000), REL(5000)));
	CHECK("range: absolute seconds", range_is("123.456789~124.5",
						  ABS(123456789000ull), ABS(124500000000ull)));
	CHECK("range: absolute with nanoseconds",
	      range_is("1.000000001~", ABS(1000000001), OPEN));
	CHECK("range: one side of each kind", range_is("10.5~2ms", ABS(10500000000ull),
							 REL(2000000)));
	CHECK("range: end before start", bad_range("3~1"));
	CHECK("range: absolute end before start", bad_range("3.5~1.25"));
	CHECK("range: no tilde", bad_range("1ms"));
	CHECK("range: two tildes", bad_range("1~2~3"));
	CHECK("range: both sides open", bad_range("~"));
	CHECK("range: a bad side", bad_range("1ms~5parsecs"));
	CHECK("range: empty", bad_range(""));
}

static void test_sort(void)
{
	struct report_options o = { 0 };

	CHECK("sort: one key", report_parse_sort("self", &o) == 0 && o.nr_sort == 1 &&
	      o.sort[0] == REPORT_SORT_SELF);
	CHECK("sort: keys in order", report_parse_sort("hits,name,avg", &o) == 0 &&
	      o.nr_sort == 3 && o.sort[0] == REPORT_SORT_HITS &&
	      o.sort[1] == REPORT_SORT_NAME && o.sort[2] == REPORT_SORT_AVG);
	CHECK("sort: every key", report_parse_sort("total,self,hits,avg,name", &o) == 0 &&
	      o.nr_sort == 5 && o.sort[0] == REPORT_SORT_TOTAL);
	CHECK("sort: an unknown key", report_parse_sort("bogus", &o) == -1);
	CHECK("sort: a key's prefix", report_parse_sort("tot", &o) == -1);
	CHECK("sort: an empty key", report_parse_sort("total,", &o) == -1);
	CHECK("sort: empty", report_parse_sort("", &o) == -1);
}

static void test_show(void)
{
	struct report_options o = { 0 };
	unsigned def = REPORT_SHOW_DEFAULT;

	CHECK("show: the default has no abstime", !(report_show(&o) & REPORT_SHOW_ABSTIME));
	CHECK("show: the default", report_show(&o) == def);
	CHECK("show: abstime on", report_parse_show("abstime", &o) == 0 &&
	      report_show(&o) == (def | REPORT_SHOW_ABSTIME));
	CHECK("show: notail off", report_parse_show("notail", &o) == 0 &&
	      report_show(&o) == ((def | REPORT_SHOW_ABSTIME) & ~REPORT_SHOW_TAIL));
	CHECK("show: the last word wins", report_parse_show("noabstime", &o) == 0 &&
	      report_parse_show("tail", &o) == 0 && report_show(&o) == def);
	CHECK("show: the kernel's name", report_parse_show("funcgraph-proc", &o) == 0 &&
	      report_parse_show("nofuncgraph-cpu", &o) == 0 &&
	      report_show(&o) == (def & ~REPORT_SHOW_CPU));
	CHECK("show: an unknown option", report_parse_show("nosuch", &o) == -1);
	CHECK("show: no alone", report_parse_show("no", &o) == -1);
}

int main(void)
{
	test_durations();
	test_ranges();
	test_sort();
	test_show();
	return unit_done();
}
