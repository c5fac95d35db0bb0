/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signals the runtime needs delivered in every thread, kept out of
 * the masks the program sets, while the program reads back what it set.
 */
#ifndef FNTRACE_SIGMASK_H
#define FNTRACE_SIGMASK_H

#include <signal.h>
#include <ucontext.h>

/* act, or a copy of it in copy whose sa_mask leaves the runtime's
 * signals free while the handler runs. */
const struct sigaction *ft_handler_mask_free(const struct sigaction *act,
					     struct sigaction *copy);
/* uc, or a copy of it in copy whose mask leaves the runtime's signals
 * free, for setcontext() and swapcontext(). */
const ucontext_t *ft_context_mask_free(const ucontext_t *uc, ucontext_t *copy);

#endif
