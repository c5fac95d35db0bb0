/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fntrace run --dump-on-oops=DIR (keeper.c): a process that holds the
 * ring of a program run becomes, so that a crash leaves DIR/snapshot.N.
 */
#ifndef FNTRACE_KEEPER_H
#define FNTRACE_KEEPER_H

/* Just before run execs argv[0]: the ring made (in the program's byte
 * order), the keeper started, and the environment the runtime finds it
 * by set.  0, or -1 (said), nothing started. */
int keeper_start(const char *dir, char *const argv[], int big_endian);

#endif
