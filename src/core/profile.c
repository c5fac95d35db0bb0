// SPDX-License-Identifier: GPL-2.0
/*
 * Profiler counts, one entry per record, in blocks allocated when the
 * profiler starts or a module is loaded while it runs.  Threads add with
 * relaxed atomics: counts, not order, matter.
 *
 * Times are clock ticks on the hot path; converting to nanoseconds needs
 * the tick rate, measured against CLOCK_MONOTONIC from the moment the
 * profiler starts.
 */
#include "profile.h"
#include "events.h"
#include "tracers.h"
#include "../common/clock_pair.h"
#include "../common/muldiv.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define BLOCK_SHIFT 12
#define BLOCK (1u << BLOCK_SHIFT)
#define MAX_BLOCKS 4096

static struct ft_profile_stat *blocks[MAX_BLOCKS];
static struct ftrace_ops profile_ops = { .flags = FTRACE_OPS_FL_GRAPH };
static uint64_t start_ticks, start_ns;
static int running;

static struct ft_profile_stat *stat_of(uint32_t id)
{
	uint32_t i = id - 1, b = i >> BLOCK_SHIFT;

	if (id == 0 || b >= MAX_BLOCKS || !blocks[b])
		return NULL;
	return &blocks[b][i & (BLOCK - 1)];
}

/* A block for every record there is; with zero, the old ones emptied. */
static int cover_records(int zero)
{
	uint32_t n = ftrace_rec_count();

	for (uint32_t b = 0; b < MAX_BLOCKS && (uint64_t)b * BLOCK < n; b++) {
		if (!blocks[b]) {
			void *p = mmap(NULL, BLOCK * sizeof(**blocks), PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				return -1;
			blocks[b] = p;
		} else if (zero) {
			memset(blocks[b], 0, BLOCK * sizeof(**blocks));
		}
	}
	return 0;
}

int ft_profile_start_stop(int on, const struct filter *filter, const struct filter *notrace)
{
	if (on == running)
		return 0;
	if (!on) {
		if (unregister_ftrace_ops(&profile_ops))
			return -1;
		running = 0;
		return 0;
	}
	if (cover_records(1))
		return -1;
	start_ticks = arch_clock();
	start_ns = ft_monotonic_ns();
	profile_ops.filter = filter;
	profile_ops.notrace = notrace;
	running = 1;
	if (register_ftrace_ops(&profile_ops)) {
		running = 0;
		return -1;
	}
	return 0;
}

/* Records added by a module loaded while the profiler runs get their
 * counts here, before any of their sites is enabled. */
int ft_profile_cover_new(void)
{
	return running ? cover_records(0) : 0;
}

void ft_profile_add(uint32_t id, uint64_t ticks)
{
	struct ft_profile_stat *s = stat_of(id);
	uint64_t scaled = ticks >> 6;

	if (!s)
		return;
	atomic_fetch_add_explicit((_Atomic uint64_t *)&s->hits, 1, memory_order_relaxed);
	atomic_fetch_add_explicit((_Atomic uint64_t *)&s->time, ticks, memory_order_relaxed);
	atomic_fetch_add_explicit((_Atomic uint64_t *)&s->time_sq, scaled * scaled,
				  memory_order_relaxed);
	atomic_fetch_add_explicit((_Atomic uint64_t *)&s->time_scaled, scaled,
				  memory_order_relaxed);
}

const struct ft_profile_stat *ft_profile_get(uint32_t id)
{
	const struct ft_profile_stat *s = stat_of(id);

	return s && s->hits ? s : NULL;
}

uint64_t ft_profile_ticks_to_ns(uint64_t ticks)
{
	uint64_t dt = arch_clock() - start_ticks, dn = ft_monotonic_ns() - start_ns;

	return dt ? mul_div_u64(ticks, dn, dt) : ticks;
}

/*
 * s^2 = (sum of squares - sum^2 / n) / (n - 1), of the times in units of
 * 64 ticks: both sums are of the same truncated values, so they agree (a
 * sum of exact times against squares of truncated ones made 100 ms calls
 * of a 0.5 ms spread read 0), and sum^2 / n is taken in 128 bits by
 * mul_div.  Then (64 ticks)^2 becomes ns^2 by the measured rate, twice.
 */
uint64_t ft_profile_variance_ns2(const struct ft_profile_stat *s)
{
	uint64_t n = s->hits, sq = s->time_sq, sum = s->time_scaled, mean_part, var;
	uint64_t dt = arch_clock() - start_ticks, dn = ft_monotonic_ns() - start_ns;

	if (n < 2 || !dt)
		return 0;
	mean_part = mul_div_u64(sum, sum, n);
	var = sq > mean_part ? (sq - mean_part) / (n - 1) : 0;	/* counts read apart */
	return mul_div_u64(mul_div_u64(var, 64 * dn, dt), 64 * dn, dt);
}
