// SPDX-License-Identifier: GPL-2.0
#include "clock_pair.h"
#include "arch_clock.h"

#include <time.h>

uint64_t ft_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void ft_clock_pair(uint64_t *ticks, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 3; i++) {
		uint64_t a = ft_monotonic_ns(), t = arch_clock(), b = ft_monotonic_ns();

		if (b - a < best) {
			best = b - a;
			*ticks = t;
			*ns = a + (b - a) / 2;
		}
	}
}
