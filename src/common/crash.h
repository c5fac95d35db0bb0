/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A crash, said by the runtime to whoever holds the ring (the kernel's
 * ftrace_dump_on_oops): the stamp a thread of the program writes when it
 * gets SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT that will kill it.
 *
 * It lies in the ring's header (struct ft_shm, trace_format.h): memory
 * the runtime maps once and never unmaps for the process's life, and
 * that whoever copies the ring after the process's end maps as well
 * (record --overwrite's recorder, record -p's, run --dump-on-oops's
 * keeper).  So a thread about to die says what killed it with a few
 * stores and no descriptor (a service closes every descriptor it did not
 * open), into memory that cannot go away under it, and the reader
 * labels the ring's last window with it.
 *
 * state is 0 (no crash), STAMPING while a thread writes the rest, then
 * STAMPED, and a FUTEX_WAKE on it wakes the reader's watcher; the first
 * crash of the program's processes holds it.  Written in the program's
 * byte order, as the rest of the ring is.
 */
#ifndef FNTRACE_CRASH_H
#define FNTRACE_CRASH_H

#include <stdatomic.h>
#include <stdint.h>

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

#endif
