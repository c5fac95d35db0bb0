/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How much a trace holds, counted the same way by the recorder (as it
 * drains chunks) and by `fntrace info` (reading trace.dat), so that the
 * line a recording ends with and `info` agree:
 *
 *   events  what a trace shows: entries, exits, function hits, whole
 *           calls (tracing_thresh), markers, stack traces (TIME, CPU,
 *           LOST and OVERRUN records only describe them)
 *   calls   entries and whole calls in a function_graph trace, hits in a
 *           function trace: what `report --stat` counts as hits
 *   lost    events the runtime dropped, as its LOST records say
 *   missed  calls the graph tracer saw but could not follow, by why
 *           (its MISSED records: the shadow stack full, swapcontext)
 */
#ifndef FNTRACE_COUNTS_H
#define FNTRACE_COUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/trace_format.h"

struct tr_counts {
	uint64_t events, calls, lost;
	uint64_t missed[FT_MISSED_KINDS];
};

/* What record --max-size dropped, the oldest chunks first: as the
 * recorder counted them, into info. */
struct tr_cut {
	uint64_t chunks, bytes, events;
	uint64_t lost;		/* events their LOSTs counted: lost in the
				 * span they covered */
	uint64_t kept_from;	/* ticks: where the oldest chunk kept begins */
};

/* Adds what the words of one chunk say, up to the first word that does
 * not start an event (a chunk cut short ends in zeroes). */
void tr_count_chunk(const uint32_t *words, uint32_t nr_words, struct tr_counts *c);
void tr_counts_add(struct tr_counts *sum, const struct tr_counts *c);
/* sum less c (which sum holds). */
void tr_counts_sub(struct tr_counts *sum, const struct tr_counts *c);
uint64_t tr_counts_missed(const struct tr_counts *c);

/* Why calls were missed, as the report and info title them: "shadow
 * stack overruns", "graph suspended after swapcontext"... */
const char *tr_missed_why(enum ft_missed_why why);
/* ", N calls not graphed (why)" for the line a recording ends with;
 * "" if none were missed. */
const char *tr_format_missed(char *buf, size_t len, const struct tr_counts *c);

/* "812 bytes", "98.7 KB", "1.2 GB" (powers of 1024). */
const char *tr_format_bytes(char *buf, size_t len, uint64_t bytes);
/* "oldest 120.0 MB (480 chunks, 30000000 events) dropped by
 * --max-size=8.0 MB", as the recorder, info and the report say it;
 * "(..., 30000000 events, 2000 lost)" if their LOSTs counted any. */
const char *tr_format_cut(char *buf, size_t len, uint64_t max_size, const struct tr_cut *cut);

#endif
