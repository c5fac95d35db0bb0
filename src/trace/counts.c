// SPDX-License-Identifier: GPL-2.0
/*
 * Counting a chunk's events without decoding them: the head word of each
 * says what it is and how long (../common/trace_format.h).
 */
#include "counts.h"
#include "../common/trace_format.h"

#include <stdio.h>

static uint64_t u64_at(const uint32_t *w)
{
	return w[0] | (uint64_t)w[1] << 32;
}

static void count_long(const uint32_t *w, struct tr_counts *c)
{
	switch ((w[0] >> 2) & 0x3f) {
	case FT_LONG_ENTRY:
	case FT_LONG_FUNC:
	case FT_LONG_CALL:	/* a whole call: tracing_thresh's */
		c->calls++;
		c->events++;
		break;
	case FT_LONG_LOST:
		c->lost += u64_at(w + 1);
		break;
	case FT_LONG_MISSED:
		if ((w[0] >> 8) < FT_MISSED_KINDS)
			c->missed[w[0] >> 8] += u64_at(w + 1);
		break;
	case FT_LONG_EXIT_RET:
	case FT_LONG_UNWIND:
	case FT_LONG_MARKER:
	case FT_LONG_STACK:
		c->events++;
		break;
	default:	/* TIME, CPU, OVERRUN (an older runtime's running
			 * total, for the report); ARGS, part of its call */
		break;
	}
}

/* Short events, a word each, make up nearly every chunk: they are
 * counted eight at a time, in a loop the compiler turns into vector code,
 * up to the first block that holds anything else.  The recorder counts
 * every chunk it drains, on the traced program's time on a small machine:
 * one event at a time, it took a sixth of the recording's CPU samples. */
#define SHORT_BLOCK 8

static uint32_t count_short_run(const uint32_t *w, uint32_t nr_words, struct tr_counts *c)
{
	uint32_t i = 0;

	for (; i + SHORT_BLOCK <= nr_words; i += SHORT_BLOCK) {
		unsigned other = 0, entries = 0;

		for (unsigned k = 0; k < SHORT_BLOCK; k++) {
			other |= (w[i + k] & 3) == 3 || w[i + k] == 0;
			entries += ~w[i + k] & 1;
		}
		if (other)
			break;
		c->events += SHORT_BLOCK;
		c->calls += entries;
	}
	return i;
}

void tr_count_chunk(const uint32_t *words, uint32_t nr_words, struct tr_counts *c)
{
	for (uint32_t i = 0; i < nr_words;) {
		int len;

		i += count_short_run(words + i, nr_words - i, c);
		if (i >= nr_words)
			return;
		len = ft_event_words(words[i]);

		if (len < 0 || len > (int)(nr_words - i))
			return;
		if ((words[i] & 3) == 3) {
			count_long(words + i, c);
		} else {
			c->events++;
			c->calls += (words[i] & 1) == 0;	/* an entry */
		}
		i += len;
	}
}

void tr_counts_add(struct tr_counts *sum, const struct tr_counts *c)
{
	sum->events += c->events;
	sum->calls += c->calls;
	sum->lost += c->lost;
	for (unsigned i = 0; i < FT_MISSED_KINDS; i++)
		sum->missed[i] += c->missed[i];
}

void tr_counts_sub(struct tr_counts *sum, const struct tr_counts *c)
{
	sum->events -= c->events;
	sum->calls -= c->calls;
	sum->lost -= c->lost;
	for (unsigned i = 0; i < FT_MISSED_KINDS; i++)
		sum->missed[i] -= c->missed[i];
}

uint64_t tr_counts_missed(const struct tr_counts *c)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < FT_MISSED_KINDS; i++)
		n += c->missed[i];
	return n;
}

const char *tr_missed_why(enum ft_missed_why why)
{
	static const char *const text[FT_MISSED_KINDS] = {
		[FT_MISSED_OVERRUN] = "shadow stack overruns",
		[FT_MISSED_SUSPENDED] = "graph suspended after swapcontext",
		[FT_MISSED_STOPPED] = "graph stopped, shadow stack out of step",
	};

	return why < FT_MISSED_KINDS ? text[why] : "?";
}

static unsigned missed_kinds(const struct tr_counts *c)
{
	unsigned kinds = 0;

	for (unsigned i = 0; i < FT_MISSED_KINDS; i++)
		kinds += c->missed[i] != 0;
	return kinds;
}

/* One why: named; several: each after its count.  Cut at len. */
const char *tr_format_missed(char *buf, size_t len, const struct tr_counts *c)
{
	unsigned kinds = missed_kinds(c);
	const char *sep = "";
	size_t n;

	buf[0] = '\0';
	if (!kinds)
		return buf;
	n = snprintf(buf, len, ", %llu calls not graphed (",
		     (unsigned long long)tr_counts_missed(c));
	for (unsigned i = 0; i < FT_MISSED_KINDS && n < len; i++) {
		if (!c->missed[i])
			continue;
		if (kinds > 1)
			n += snprintf(buf + n, len - n, "%s%llu ", sep,
				      (unsigned long long)c->missed[i]);
		if (n < len)
			n += snprintf(buf + n, len - n, "%s", tr_missed_why(i));
		sep = ", ";
	}
	if (n < len)
		snprintf(buf + n, len - n, ")");
	return buf;
}

const char *tr_format_bytes(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "KB", "MB", "GB", "TB" };
	double v = bytes;
	unsigned u = 0;

	if (bytes < 1024) {
		snprintf(buf, len, "%u byte%s", (unsigned)bytes, bytes == 1 ? "" : "s");
		return buf;
	}
	v /= 1024;
	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", v, units[u]);
	return buf;
}

const char *tr_format_cut(char *buf, size_t len, uint64_t max_size, const struct tr_cut *cut)
{
	char dropped[32], max[32], lost[40] = "";

	if (cut->lost)
		snprintf(lost, sizeof(lost), ", %llu lost", (unsigned long long)cut->lost);
	snprintf(buf, len, "oldest %s (%llu chunk%s, %llu events%s) dropped by --max-size=%s",
		 tr_format_bytes(dropped, sizeof(dropped), cut->bytes),
		 (unsigned long long)cut->chunks, cut->chunks == 1 ? "" : "s",
		 (unsigned long long)cut->events, lost, tr_format_bytes(max, sizeof(max), max_size));
	return buf;
}
