// SPDX-License-Identifier: GPL-2.0
/*
 * tr_count_chunk: what counts as an event, a call, a loss and a call
 * not graphed, from a chunk's words alone; and the byte sizes and calls
 * not graphed the summary line prints.
 */
#include "unit.h"
#include "../../src/common/trace_format.h"
#include "../../src/trace/counts.h"

#include <string.h>

/* Runs of short events, counted a block at a time, around a long one and
 * up to a zeroed tail that falls inside a block. */
static void test_short_runs(void)
{
	uint32_t w[64] = { 0 };
	unsigned n = 0;
	struct tr_counts c = { 0 };

	for (unsigned i = 0; i < 37; i++)	/* 19 entries, 18 exits */
		w[n++] = i % 2 ? ft_exit_word(i) : ft_entry_word(i, 1);
	w[n++] = ft_long_word(FT_LONG_ENTRY, 2);	/* a call */
	w[n++] = 1u << 20;
	for (unsigned i = 0; i < 11; i++)	/* 6 entries, 5 exits */
		w[n++] = i % 2 ? ft_exit_word(i) : ft_entry_word(i, 1);
	w[n + 1] = ft_entry_word(9, 1);		/* past the end: not counted */
	tr_count_chunk(w, n + 5, &c);
	CHECK("short runs: every entry a call", c.calls == 19 + 1 + 6);
	CHECK("short runs: every event", c.events == 37 + 1 + 11);
	CHECK("short runs: nothing lost", c.lost == 0);
}

/* MISSED notes add up by why; a why no reader knows is left out; the
 * summary line names one why, or gives each its count. */
static void test_missed(void)
{
	uint32_t w[16];
	unsigned n = 0;
	struct tr_counts c = { 0 };
	char buf[160];

	w[n++] = ft_long_word(FT_LONG_MISSED, FT_MISSED_OVERRUN);
	w[n++] = 1;
	w[n++] = 0;
	w[n++] = ft_long_word(FT_LONG_MISSED, FT_MISSED_OVERRUN);
	w[n++] = 4096;
	w[n++] = 1;					/* 2^32 more */
	w[n++] = ft_long_word(FT_LONG_MISSED, FT_MISSED_KINDS);	/* unknown */
	w[n++] = 7;
	w[n++] = 0;
	w[n++] = ft_entry_word(3, 1);
	tr_count_chunk(w, n, &c);
	CHECK("missed: overruns added up",
	      c.missed[FT_MISSED_OVERRUN] == 4097 + (1ull << 32));
	CHECK("missed: an unknown why left out", tr_counts_missed(&c) == 4097 + (1ull << 32));
	CHECK("missed: not events, nor calls, nor lost",
	      c.events == 1 && c.calls == 1 && c.lost == 0);
	memset(&c, 0, sizeof(c));
	CHECK("missed: none, nothing said", !strcmp(tr_format_missed(buf, sizeof(buf), &c), ""));
	c.missed[FT_MISSED_SUSPENDED] = 900;
	CHECK("missed: one why, named",
	      !strcmp(tr_format_missed(buf, sizeof(buf), &c),
		      ", 900 calls not graphed (graph suspended after swapcontext)"));
	c.missed[FT_MISSED_OVERRUN] = 100;
	CHECK("missed: several, each counted",
	      !strcmp(tr_format_missed(buf, sizeof(buf), &c),
		      ", 1000 calls not graphed (100 shadow stack overruns, "
		      "900 graph suspended after swapcontext)"));
	CHECK("missed: cut to the buffer", strlen(tr_format_missed(buf, 20, &c)) == 19);
}

/* tracing_thresh's whole calls: each a call and an event, its depth
 * and duration words never taken for events of their own. */
static void test_whole_calls(void)
{
	uint32_t w[16];
	unsigned n = 0;
	struct tr_counts c = { 0 };

	w[n++] = ft_long_word(FT_LONG_CALL, 5);
	w[n++] = 7;				/* id */
	w[n++] = 2 | FT_CALL_UNWOUND;		/* depth */
	w[n++] = 0;				/* a zero duration word */
	w[n++] = 1;
	w[n++] = ft_long_word(FT_LONG_CALL, 5);
	w[n++] = 3;
	w[n++] = 1;
	w[n++] = 2000000;
	w[n++] = 0;
	tr_count_chunk(w, n, &c);
	CHECK("whole calls: each a call", c.calls == 2);
	CHECK("whole calls: each an event", c.events == 2);
	memset(&c, 0, sizeof(c));
	tr_count_chunk(w, n - 1, &c);
	CHECK("whole calls: one cut by the chunk's end is not counted", c.calls == 1);
}

int main(void)
{
	uint32_t w[32];
	unsigned n = 0;
	struct tr_counts c = { 0 };
	char buf[32];

	w[n++] = ft_long_word(FT_LONG_TIME, 0);		/* bookkeeping */
	w[n++] = 5;
	w[n++] = 0;
	w[n++] = ft_long_word(FT_LONG_CPU, 1);		/* bookkeeping */
	w[n++] = ft_entry_word(7, 3);			/* call 1 */
	w[n++] = ft_long_word(FT_LONG_ENTRY, 2);	/* call 2 */
	w[n++] = 1u << 20;
	w[n++] = ft_exit_word(4);
	w[n++] = ft_long_word(FT_LONG_EXIT_RET, 1);
	w[n++] = 42;
	w[n++] = 0;
	w[n++] = ft_long_word(FT_LONG_LOST, 2);		/* 9 lost */
	w[n++] = 9;
	w[n++] = 0;
	w[n++] = ft_long_word(FT_LONG_FUNC, 1);		/* call 3: a hit */
	w[n++] = 3;
	w[n++] = 0x1000;
	w[n++] = 0;
	w[n++] = ft_long_word(FT_LONG_MARKER, 5);	/* "hello", two words */
	memcpy(&w[n], "hello\0\0", 8);
	n += 2;
	w[n++] = ft_long_word(FT_LONG_OVERRUN, 0);	/* bookkeeping */
	w[n++] = 1;
	w[n++] = 0;
	w[n++] = ft_long_word(FT_LONG_UNWIND, 1);
	w[n++] = 0;					/* the zeroed tail */
	w[n++] = ft_entry_word(8, 1);			/* never reached */

	tr_count_chunk(w, n, &c);
	CHECK("entries, entry-with-id and hits are calls", c.calls == 3);
	CHECK("events: 3 calls, 3 exits, 1 marker; no bookkeeping", c.events == 7);
	CHECK("lost: what LOST says", c.lost == 9);

	memset(&c, 0, sizeof(c));
	tr_count_chunk(w, 6, &c);	/* ends inside the long entry */
	CHECK("an event cut by the chunk's end is not counted", c.calls == 1 && c.events == 1);

	test_short_runs();
	test_missed();
	test_whole_calls();
	CHECK("bytes", !strcmp(tr_format_bytes(buf, sizeof(buf), 812), "812 bytes"));
	CHECK("one byte", !strcmp(tr_format_bytes(buf, sizeof(buf), 1), "1 byte"));
	CHECK("KB", !strcmp(tr_format_bytes(buf, sizeof(buf), 101068), "98.7 KB"));
	CHECK("GB", !strcmp(tr_format_bytes(buf, sizeof(buf), 3ull << 30), "3.0 GB"));
	return unit_done();
}
