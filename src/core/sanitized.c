// SPDX-License-Identifier: GPL-2.0
/*
 * What the runtime does differently in a process a sanitizer watches
 * (docs/design.md, *Sanitizers*).
 *
 * LeakSanitizer judges at exit which blocks are still reachable, reading
 * every thread's stack for words that look like pointers.  The hooks save
 * registers on the stack below the traced function's frame, dead ones too
 * (at a return, the argument registers still hold what the function last
 * passed on): such a copy, which the program's own code would have
 * overwritten with a return address, kept a block the program had lost
 * reachable, and the leak went unreported.  So where LSan runs, the
 * x86_64 hooks zero what they saved on the way out.
 *
 * ThreadSanitizer runs a thread of its own that blocks every signal: not
 * one of the program's (src/core/tasks.c).
 */
#include "ftrace.h"
#include "sanitized.h"

#include <dlfcn.h>

int ft_scrub_spills;
int ft_sanitized_tsan;

void ft_sanitized_start(void)
{
	ft_scrub_spills = dlsym(RTLD_DEFAULT, "__lsan_do_leak_check") != NULL;
	ft_sanitized_tsan = dlsym(RTLD_DEFAULT, "__tsan_init") != NULL;
}
