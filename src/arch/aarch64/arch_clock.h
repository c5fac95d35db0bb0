/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aarch64: the clock every event is stamped with, the generic timer's
 * virtual count (cntvct_el0), which Linux lets user space read.  No isb
 * before it: like rdtsc without rdtscp on x86_64, the read may move by a
 * few instructions, which does not matter to time a whole function.  Its
 * rate (cntfrq_el0, often 24 MHz to 1 GHz; 62.5 MHz under qemu) is found
 * by the recorder from two (ticks, CLOCK_MONOTONIC) samples.
 */
#ifndef FNTRACE_ARCH_CLOCK_H
#define FNTRACE_ARCH_CLOCK_H

#include <stdint.h>

static inline uint64_t arch_clock(void)
{
	uint64_t ticks;

	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(ticks));
	return ticks;
}

#endif
