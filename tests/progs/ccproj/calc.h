/* SPDX-License-Identifier: GPL-2.0 */
/* The small project `fntrace cc` builds in the tests. */
#ifndef CALC_H
#define CALC_H

#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noipa))
#endif

int calc_total(int n);
int util_clamp(int x, int lo, int hi);
void util_report(const char *what, int value);

#endif
