/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One field of a /proc status file, read without malloc: where glibc's
 * first malloc in a thread would make an arena with mprotect, which a
 * seccomp filter may kill (seccomp.c), and where the runtime measures
 * its own memory (limits.c).
 */
#ifndef FNTRACE_PROCSTATUS_H
#define FNTRACE_PROCSTATUS_H

/* The number after "NAME:" in the status file at path ("Seccomp",
 * "VmSize"); -1 if there is no such file or field. */
long ft_status_field(const char *path, const char *name);

#endif
