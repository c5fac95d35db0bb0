/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test harness: each CHECK prints one PASS or FAIL line,
 * which tests/run.sh counts; unit_done() gives the exit status.
 */
#ifndef FNTRACE_UNIT_H
#define FNTRACE_UNIT_H

#include <stdio.h>

static int unit_failures;

#define CHECK(name, cond)                                                      \
	do {                                                                   \
		if (cond) {                                                    \
			printf("PASS: %s\n", name);                            \
		} else {                                                       \
			printf("FAIL: %s (%s:%d)\n", name, __FILE__, __LINE__);\
			unit_failures++;                                       \
		}                                                              \
	} while (0)

static inline int unit_done(void)
{
	return unit_failures ? 1 : 0;
}

#endif
