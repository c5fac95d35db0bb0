/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Before starting a program: can fntrace trace it at all?
 */
#ifndef FNTRACE_PROBE_H
#define FNTRACE_PROBE_H

#include <sys/types.h>

/* 1 if the program, or a shared object it needs from outside the system
 * directories, has call sites, or if it is a script (what it runs may);
 * 0 if none has; -1 (said) if unreadable. */
int probe_traceable(const char *path);
/* Can the runtime get into the program: dynamically linked, or static
 * with the runtime linked in (its .note.fntrace)?  0, or -1 after one
 * line.  A file that is not ELF passes: the loader says what it is. */
int probe_runtime_reachable(const char *path);
/* The libraries the program names (DT_NEEDED), found as the loader
 * would (LD_LIBRARY_PATH, its run path, then dirs, colon-separated):
 * malloc()ed paths in *out, n of them.  -1 if it cannot be read. */
int probe_needed_paths(const char *path, const char *dirs, char ***out, unsigned *n);
/* A program built without call sites (x86_64): its detour plan written
 * for the runtime, and each function the filter (a name a line, or NULL)
 * names that cannot be patched said in one line, after opt, the option
 * that named it (detours_prep.c); with a filter, the plans of the
 * libraries whose functions it names.  A plan that cannot be written is
 * said, and the program runs without it.  A program with call sites that
 * holds clang's ThreadSanitizer gets the plan of its entry hook's pc fix.
 * The names said refused, a line each (malloc()ed), or NULL. */
char *probe_detours_prepare(const char *path, const char *filter, const char *opt);
/* The exact function names of a set_ftrace_filter value or trigger list
 * (FUNC, FUNC:mod:M, FUNC:COMMAND; no glob, no '!'), a name a line; NULL
 * if none. */
char *probe_exact_names(const char *value);
/* The same before value is written to set_ftrace_filter in the running
 * process pid (fntrace ctl, record -p): each module it maps (not libc,
 * the loader, libpthread, libdl) with no call sites that defines a
 * function value names exactly (a glob plans nothing), planned in pid's
 * cache directory (its environment's, ours meanwhile).  The names said
 * refused, after opt, or NULL. */
char *probe_detours_prepare_pid(pid_t pid, const char *value, const char *opt);

#endif
