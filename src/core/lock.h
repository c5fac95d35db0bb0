/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one lock of the control path (lock.c): every update, module list
 * change, tracer switch and control request holds it.
 */
#ifndef FNTRACE_LOCK_H
#define FNTRACE_LOCK_H

void ftrace_lock(void);
void ftrace_unlock(void);
/* A fork's prepare handler: the lock, ahead of every thread waiting for
 * it (the child and the parent then let it go with ftrace_unlock). */
void ftrace_lock_for_fork(void);

#endif
