/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mips o32: the clock every event is stamped with.  The cycle counter
 * (rdhwr $2) is 32 bits wide and wraps within seconds to minutes, and
 * its rate is the CPU's (qemu-user gives the host's ticks): a 64-bit
 * stamp would need a high word kept per thread.  CLOCK_MONOTONIC in
 * nanoseconds instead: ticks are nanoseconds, which the recorder's
 * conversion (two (ticks, CLOCK_MONOTONIC) samples) keeps as they are.
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
