/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A crash, said by the runtime to the recorder (the kernel's
 * ftrace_dump_on_oops): the stamp a thread of the program writes when it
 * gets SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT that will kill it.
 *
 * It lies in the snapshot buffer's first page, after struct ft_snap: that
 * memory is the recorder's (record --overwrite makes it) and the
 * program's at once, so a thread about to die says what killed it with a
 * few stores and no descriptor (a service closes every descriptor it did
 * not open), and the recorder, which holds the ring, copies its last
 * window once the program has ended, labelled with it.
 *
 * state is 0 (no crash), STAMPING while a thread writes the rest, then
 * STAMPED, and a FUTEX_WAKE on it wakes the recorder's watcher; the
 * first crash of the program's processes holds it.  Written in the
 * program's byte order, as the rest of the buffer is.
 */
#ifndef FNTRACE_CRASH_H
#define FNTRACE_CRASH_H

#include <stdint.h>

#include "snapshot.h"

#define FT_CRASH_AT	3072	/* offset in the snapshot buffer's first page */

enum ft_crash_state { FT_CRASH_NONE, FT_CRASH_STAMPING, FT_CRASH_STAMPED };

struct ft_crash {
	_Atomic uint32_t state;		/* enum ft_crash_state */
	uint32_t pid;			/* the process, and the thread, that got it */
	uint32_t tid;
	int32_t code;			/* siginfo's si_code */
	uint64_t addr;			/* siginfo's si_addr (the fault's address) */
	uint64_t monotonic_ns;		/* when: CLOCK_MONOTONIC */
	char signal[16];		/* its name ("SIGSEGV"): signal numbers
					 * differ between arches (mips) */
	char comm[16];			/* the thread's name */
};

_Static_assert(FT_CRASH_AT >= sizeof(struct ft_snap) &&
	       FT_CRASH_AT + sizeof(struct ft_crash) <= FT_SNAP_HEAD,
	       "the stamp lies between the snapshot's header and the ring's copy");

static inline struct ft_crash *ft_crash_of(const struct ft_snap *s)
{
	return (struct ft_crash *)((char *)s + FT_CRASH_AT);
}

#endif
