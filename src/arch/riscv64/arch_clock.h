/* SPDX-License-Identifier: GPL-2.0 */
/*
 * riscv64: the clock every event is stamped with.  rdtime reads the time
 * CSR, which Linux lets user space read (scounteren.TM) and qemu-user
 * answers from the host's cycle counter; either way a constant-rate,
 * monotonic count.  The recorder converts ticks to nanoseconds with two
 * (ticks, CLOCK_MONOTONIC) samples, so its rate need not be known.
 */
#ifndef FNTRACE_ARCH_CLOCK_H
#define FNTRACE_ARCH_CLOCK_H

#include <stdint.h>

static inline uint64_t arch_clock(void)
{
	uint64_t t;

	__asm__ volatile("rdtime %0" : "=r"(t));
	return t;
}

#endif
