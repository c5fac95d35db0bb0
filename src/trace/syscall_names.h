/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64's system calls by number and by name, from the table the build
 * generates from <asm/unistd_64.h> (scripts/syscall-table.sh).
 */
#ifndef FNTRACE_SYSCALL_NAMES_H
#define FNTRACE_SYSCALL_NAMES_H

#include <stddef.h>

/* The name of call NR, or "syscall_NR" in buf. */
const char *syscall_name(unsigned nr, char *buf, size_t len);
/* The number of the call NAME (or "syscall_NR"'s), or -1. */
int syscall_number(const char *name);

#endif
