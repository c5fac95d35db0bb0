/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mips o32: the clock every event is stamped with.  Not the cycle counter
 * (rdhwr $2): qemu-user 7.2 lets it run but it reads 0, and on hardware
 * it is 32 bits wide at half the CPU's rate, wrapping within seconds; a
 * 64-bit stamp would need a high word kept per thread.  CLOCK_MONOTONIC
 * in nanoseconds instead (the vDSO on hardware, a system call under
 * qemu): ticks are nanoseconds, which the recorder's conversion (two
 * (ticks, CLOCK_MONOTONIC) samples) keeps as they are.
 */
#ifndef FNTRACE_ARCH_CLOCK_H
#define FNTRACE_ARCH_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t arch_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
