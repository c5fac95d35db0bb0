/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One sample of the two clocks a trace's times are converted with: the
 * architecture's counter its events carry (arch_clock()) and
 * CLOCK_MONOTONIC in ns.  The recorder takes them, and the runtime, whose
 * counter under qemu-user is not the recorder's.
 */
#ifndef FNTRACE_CLOCK_PAIR_H
#define FNTRACE_CLOCK_PAIR_H

#include <stdint.h>

/* The counter read between two clock reads, and their middle: the
 * tightest of a few tries, so that a preemption in one does not count. */
void ft_clock_pair(uint64_t *ticks, uint64_t *ns);
/* CLOCK_MONOTONIC, in ns. */
uint64_t ft_monotonic_ns(void);

#endif
