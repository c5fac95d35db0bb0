/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i386: the clock every event is stamped with.  rdtsc, as on x86_64 (every
 * i686 has it; the recorder converts ticks to nanoseconds with two (ticks,
 * CLOCK_MONOTONIC) samples).  edx:eax is the whole 64-bit count, so a
 * 32-bit process sees no wrap-around the 64-bit one would not.
 */
#ifndef FNTRACE_ARCH_CLOCK_H
#define FNTRACE_ARCH_CLOCK_H

#include <stdint.h>

static inline uint64_t arch_clock(void)
{
	uint64_t t;

	__asm__ volatile("rdtsc" : "=A"(t));
	return t;
}

#endif
