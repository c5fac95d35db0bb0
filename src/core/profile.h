/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The function profiler (function_profile_enabled, trace_stat/function):
 * hits and time per function, kept in the process, timed through the
 * graph hooks as the kernel's profiler is, but not limited by the graph's
 * own settings (tracer_graph.c).
 */
#ifndef FNTRACE_PROFILE_H
#define FNTRACE_PROFILE_H

#include <stdint.h>

#include "../common/filter.h"

struct ft_profile_stat {
	uint64_t hits;
	uint64_t time;		/* ns */
	uint64_t time_sq;	/* sum of (ticks / 64)^2, for s^2 */
	uint64_t time_scaled;	/* sum of ticks / 64: the same values */
};

/* Start (zeroing the counts) or stop, with these filters. */
int ft_profile_start_stop(int on, const struct filter *filter, const struct filter *notrace);
/* Counts for the records of modules loaded since the start. */
int ft_profile_cover_new(void);
/* One call of record id that took ticks clock ticks. */
void ft_profile_add(uint32_t id, uint64_t ticks);
/* The counts of record id, or NULL if it has none. */
const struct ft_profile_stat *ft_profile_get(uint32_t id);
/* Clock ticks per microsecond as measured, for converting. */
uint64_t ft_profile_ticks_to_ns(uint64_t ticks);
/* The sample variance (s^2) of a function's times, in ns^2. */
uint64_t ft_profile_variance_ns2(const struct ft_profile_stat *s);

#endif
