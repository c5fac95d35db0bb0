/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64: the clock every event is stamped with.  rdtsc, not rdtscp: the
 * ordering rdtscp adds is not needed to time a whole function and costs
 * twice as much (about 20 ns against 10 ns, measured in a loop).  The recorder
 * converts ticks to nanoseconds with two (ticks, CLOCK_MONOTONIC) samples.
 */
#ifndef FNTRACE_ARCH_CLOCK_H
#define FNTRACE_ARCH_CLOCK_H

#include <stdint.h>

static inline uint64_t arch_clock(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

#endif
