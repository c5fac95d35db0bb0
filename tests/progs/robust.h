/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the tests/progs/robust_*.c programs (tests/cases/robust/robust_*.sh):
 * every function is kept out of line and out of interprocedural cloning,
 * so that each one keeps its own call site and its graph is the source's.
 */
#ifndef ROBUST_H
#define ROBUST_H

#ifdef __clang__
#define KEEP __attribute__((noinline))	/* clang has no noipa */
#else
#define KEEP __attribute__((noipa))
#endif

/* Written by every function after its calls: a store the compiler must
 * keep, so that no call is a tail call (except where one is meant). */
static volatile long sink;

#endif
