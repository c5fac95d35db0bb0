/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trap side of live patching: while a batch of sites is being
 * rewritten, a thread that runs into one of them lands in our SIGTRAP
 * handler, which makes it behave as if the new instruction had run.
 */
#ifndef FNTRACE_BREAKPOINT_H
#define FNTRACE_BREAKPOINT_H

#include "ftrace.h"

/* One site of the batch being written, sorted by addr. */
struct bp_site {
	uintptr_t addr;
	uint8_t len;
	uint8_t insn[ARCH_MAX_INSN];	/* what the site becomes */
	uint8_t old[ARCH_MAX_INSN];	/* what it was */
};

/* Find the real sigaction() now, at start-up: a first dlsym() must not
 * happen inside ftrace_modules_pinned(). */
void ftrace_bp_init(void);
/* Install the SIGTRAP handler (once; the program's own is chained). */
int ftrace_bp_install(void);
/* Make v[0..n) the sites the handler knows, until ftrace_bp_retire(). */
void ftrace_bp_publish(const struct bp_site *v, unsigned n);
/* Forget them, once no handler is still looking at them. */
void ftrace_bp_retire(void);
/* Does a thread block SIGTRAP, so that a trap would kill the process? */
int ftrace_traps_blocked(void);

#endif
