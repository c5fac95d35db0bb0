// SPDX-License-Identifier: GPL-2.0
/*
 * The last snapshot of a program that crashed (the kernel's
 * ftrace_dump_on_oops).  The ring outlives the program: it is the
 * recorder's memory, and a process that dies writes nothing more into
 * it, so the window the recorder copies once the program has ended is
 * the window at the crash, whatever the program's handler or its core
 * dump did meanwhile.  What remains is to say why: the crashing thread's
 * stamp (../common/crash.h, written by ../core/crash.c), or, where none
 * was written (the signal blocked, no stack left to run a handler on, a
 * crash before the runtime started), the process's wait status.
 */
#include "flight.h"
#include "../common/crash.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static int is_crash_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	       sig == SIGABRT;
}

static const char *text(const char *field, size_t size, char *buf)
{
	memcpy(buf, field, size);
	buf[size - 1] = '\0';
	return buf;
}

/* "SIGSEGV in thread T (name) of pid P, address A, si_code C": the
 * address only for the faults that have one. */
static void say_stamp(const struct ft_snap *s, const struct ft_crash *c, char *buf, size_t len)
{
	char sig[sizeof(c->signal)], comm[sizeof(c->comm)], addr[48] = "";
	int code = (int)ft_snap_u32(s, (uint32_t)c->code);

	text(c->signal, sizeof(c->signal), sig);
	if (code > 0 && (!strcmp(sig, "SIGSEGV") || !strcmp(sig, "SIGBUS")))
		snprintf(addr, sizeof(addr), ", address 0x%" PRIx64, ft_snap_u64(s, c->addr));
	snprintf(buf, len, "%s in thread %u (%s) of pid %u%s, si_code %d", sig,
		 ft_snap_u32(s, c->tid), text(c->comm, sizeof(c->comm), comm),
		 ft_snap_u32(s, c->pid), addr, code);
}

/* The stamp, if a whole one is there: 1. */
static int stamped(const struct ft_snap *s, const struct ft_crash **out)
{
	const struct ft_crash *c = ft_crash_of(s);

	*out = c;
	return ft_snap_u32(s, atomic_load(&((struct ft_crash *)c)->state)) == FT_CRASH_STAMPED;
}

unsigned flight_end_reason(struct flight *f, int status)
{
	const struct ft_crash *c;
	int has_stamp = stamped(f->snap, &c);
	int own = has_stamp && ft_snap_u32(f->snap, c->pid) == (uint32_t)f->run->pid;
	char said[sizeof(f->why)];

	f->why[0] = '\0';
	if (has_stamp)
		say_stamp(f->snap, c, said, sizeof(said));
	if (WIFSIGNALED(status) && is_crash_signal(WTERMSIG(status))) {
		if (own)
			snprintf(f->why, sizeof(f->why), "%s", said);
		else
			snprintf(f->why, sizeof(f->why), "SIG%s: no thread said it (the signal was "
				 "blocked, or no stack was left to handle it)",
				 sigabbrev_np(WTERMSIG(status)));
		return FT_SNAP_CRASH;
	}
	if (has_stamp)
		snprintf(f->why, sizeof(f->why), "an earlier crash: %.100s", said);
	return FT_SNAP_END;
}
