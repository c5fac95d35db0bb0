/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Start-up (runtime.c): the constructor, and the modules that come later.
 */
#ifndef FNTRACE_RUNTIME_H
#define FNTRACE_RUNTIME_H

#include <stdint.h>

/* Start the runtime, once: from its constructor, or from the first call
 * to mcount if a constructor that ran before ours made one. */
void ft_runtime_start(void);
int ft_runtime_started(void);
/* A module may have come, addr in it: read it, patch it as the ops
 * want, unless it is known already. */
void ft_module_arrived(uintptr_t addr);

#endif
