/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FNTRACE_SIGFRAMES_H
#define FNTRACE_SIGFRAMES_H

#include <stdint.h>

/* What the kernel's signal frames return through, from a struct
 * sigaction libc filled in for a handler of ours. */
void ft_sigframes_init(const void *sigaction);
/* The pcs the thread at ucontext resumes at as the program's signal
 * handlers it is in return, the innermost first: up to max. */
unsigned ft_sigframes_pcs(const void *ucontext, uintptr_t *pcs, unsigned max);

#endif
