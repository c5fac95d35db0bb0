/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Making every thread of the process see new text: the user-space form of
 * the kernel's "sync every core" between the steps of a live patch.
 */
#ifndef FNTRACE_SYNC_H
#define FNTRACE_SYNC_H

/* Ready the mechanism (registers with membarrier); 0 on success. */
int ftrace_sync_init(void);
/* Every thread of the process passes a core-serialising point. */
int ftrace_sync_cores(void);

#endif
