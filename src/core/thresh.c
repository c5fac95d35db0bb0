// SPDX-License-Identifier: GPL-2.0
/*
 * tracing_thresh: the setting, and the whole calls it has the graph
 * hooks write (thresh.h).  The user gives microseconds, as to the
 * kernel; the hooks compare a call's length in ticks of the clock its
 * events carry, so the threshold is converted once, when it is set, at a
 * rate measured then.  The runtime has no rate to go by: x86's TSC runs
 * at whatever the machine's is, and under qemu-user an emulated counter
 * at its own.
 */
#include "thresh.h"
#include "tracing.h"
#include "../common/clock_pair.h"
#include "../common/muldiv.h"

/* Two clock samples this far apart give the rate to better than 0.1%:
 * each is within the span of two CLOCK_MONOTONIC reads, well under a
 * microsecond.  A millisecond's wait, once per process. */
#define RATE_SPAN_NS	1000000

static uint64_t rate_ticks, rate_ns;	/* ticks in ns, as measured */
static unsigned thresh_us;

static void measure_rate(void)
{
	uint64_t t0, n0, t1, n1;

	ft_clock_pair(&t0, &n0);
	do
		ft_clock_pair(&t1, &n1);
	while (n1 - n0 < RATE_SPAN_NS);
	rate_ticks = t1 - t0;
	rate_ns = n1 - n0;
}

/* At least one tick, so that a threshold set is never taken for none. */
uint64_t ft_clock_us_to_ticks(uint64_t us)
{
	uint64_t ticks;

	if (!rate_ns)
		measure_rate();
	ticks = mul_div_u64(us * 1000, rate_ticks, rate_ns);
	return ticks ? ticks : 1;
}

uint64_t ft_clock_ticks_to_us(uint64_t ticks)
{
	if (!rate_ns)
		measure_rate();
	return mul_div_u64(ticks, rate_ns, rate_ticks) / 1000;
}

void ft_graph_set_thresh(unsigned us)
{
	ft_graph.thresh = us ? ft_clock_us_to_ticks(us) : 0;
	thresh_us = us;
}

unsigned ft_graph_thresh(void)
{
	return thresh_us;
}

/* At the depth the call had: the graph's frames below it, and for the
 * signal context those of the thread's own it nests in.  Rare: most
 * calls are shorter than a threshold worth setting. */
ft_cold void ft_thresh_write(struct ft_context *c, const struct shadow_frame *f, uint64_t now,
			     int unwound)
{
	uint32_t depth = ft_graph_depth(c) - 1;

	if (!ft_graph.trace || !ft_tracing_on)
		return;
	if (c->number)
		depth += ft_graph_depth(&c->thread->own);
	ev_call(c, f->id, (depth & FT_CALL_DEPTH_MASK) | (unwound ? FT_CALL_UNWOUND : 0), now,
		now - f->time);
}
