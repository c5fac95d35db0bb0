/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test harness: each CHECK prints one PASS or FAIL line,
 * which tests/run.sh counts; unit_done() gives the exit status.
 */
#ifndef FNTRACE_UNIT_H
#define FNTRACE_UNIT_H

#include <stdint.h>
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

/* Are the bytes at got those written as hex in want ("e8 00 10 00 00")? */
static inline int unit_bytes_are(const uint8_t *got, const char *want)
{
	for (size_t i = 0; *want; i++, want += 3) {
		unsigned b;

		if (sscanf(want, "%2x", &b) != 1 || got[i] != b)
			return 0;
		if (!want[2])
			break;
	}
	return 1;
}

static inline int unit_done(void)
{
	return unit_failures ? 1 : 0;
}

#endif
