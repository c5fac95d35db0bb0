/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracing_thresh in the graph hooks (thresh.c): a frame pushed while a
 * threshold is set wrote no entry, and its call is written whole at its
 * exit if it lasted long enough.  (The setting itself: tracing.h.)
 */
#ifndef FNTRACE_THRESH_H
#define FNTRACE_THRESH_H

#include "events.h"
#include "tracers.h"

/* Did the call of frame f, closing now, last long enough to be written?
 * One whose threshold was switched off since its entry did: it wrote no
 * entry, and no exit will come.  A clock that stepped back (another
 * CPU's) says nothing. */
static ft_inline int ft_thresh_long_enough(const struct shadow_frame *f, uint64_t now)
{
	return now >= f->time && now - f->time >= ft_graph.thresh;
}

/* That call, whole (FT_LONG_CALL), on c, whose top frame f still is;
 * unwound: a jump left it. */
void ft_thresh_write(struct ft_context *c, const struct shadow_frame *f, uint64_t now,
		     int unwound);

/* Microseconds in ticks of the clock events carry, and back, at a rate
 * measured once (a millisecond's wait, on the control thread: thresh.c). */
uint64_t ft_clock_us_to_ticks(uint64_t us);
uint64_t ft_clock_ticks_to_us(uint64_t ticks);

#endif
