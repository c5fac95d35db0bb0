/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System calls by number and by name, for each architecture a recording's
 * kernel may have been (KEV_ARCH_*), from the tables the build generates
 * from each one's headers (scripts/syscall-table.sh).
 */
#ifndef FNTRACE_SYSCALL_NAMES_H
#define FNTRACE_SYSCALL_NAMES_H

#include <stddef.h>

/* The name of call NR of architecture ARCH (KEV_ARCH_*), or
 * "syscall_NR" in buf: an architecture whose table the build could not
 * make, or one it does not know. */
const char *syscall_name_of(unsigned arch, unsigned nr, char *buf, size_t len);
/* The number of the call NAME (or "syscall_NR"'s) of ARCH, or -1. */
int syscall_number_of(unsigned arch, const char *name);
/* The architecture fntrace runs on: its kernel's calls are recorded. */
unsigned syscall_host_arch(void);
/* The KEV_ARCH_* of ELF machine e_machine, or KEV_ARCHES if none. */
unsigned syscall_arch_of_machine(unsigned machine);
/* "i386" ... */
const char *syscall_arch_name(unsigned arch);
/* Is NAME a system call of any architecture (or "syscall_NR")? */
int syscall_known(const char *name);
/* The host's: syscall_name_of(syscall_host_arch(), ...). */
const char *syscall_name(unsigned nr, char *buf, size_t len);
int syscall_number(const char *name);

#endif
