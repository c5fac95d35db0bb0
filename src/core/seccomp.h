/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a seccomp filter leaves the runtime free to do.  A filter may kill
 * the process on any system call, and its rules cannot be read from
 * inside: where one is in place, the runtime keeps to the calls every
 * program makes and does without the others, saying so once.
 */
#ifndef FNTRACE_SECCOMP_H
#define FNTRACE_SECCOMP_H

/* Set once a filter is seen on any thread: string arguments are then
 * recorded as pointers, not read with process_vm_readv.  Read by the
 * capturing path, which may call nothing. */
extern int ft_seccomp_seen;

/* At start-up: look at every thread's status for a filter installed
 * since (one the wrapper did not see).  A control request looks at a
 * slice of them (ft_seccomp_may_serve). */
void ft_seccomp_scan(void);
/* May this thread change text now?  Patching calls mprotect, madvise and
 * membarrier, any of which a filter on this thread may forbid: not under
 * a filter, nor ever after strict mode.  Says why once. */
int ft_seccomp_may_patch(void);
/* Is this thread under a filter (or strict mode, once seen)?  Says
 * nothing: for what the runtime may go without. */
int ft_seccomp_covers_this_thread(void);
/* May this thread serve the control endpoint (socket, accept, malloc,
 * patching)?  Looks at the next slice of threads first; if not,
 * says so, and what follows. */
int ft_seccomp_may_serve(const char *otherwise);

#endif
