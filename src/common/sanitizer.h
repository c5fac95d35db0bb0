/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sanitizer runtimes and the place they need in the process: first.
 *
 * gcc links a program built with -fsanitize=address (thread, leak) to a
 * shared runtime, libasan.so (libtsan.so, liblsan.so), which interposes
 * malloc and hundreds of libc functions and wants every lookup to find
 * its definitions first; ASan refuses to start otherwise ("ASan runtime
 * does not come first in initial library list").  LD_PRELOAD objects come
 * before the program's libraries, so a program that needs such a runtime
 * gets it named first in LD_PRELOAD, before libfntrace.so: the program
 * ends up with the library list it has without fntrace, the runtime right
 * after its sanitizer.  Only for that program: an exec'd image gets the
 * runtime its own file names (src/core/exec_env.c), and the variable
 * below tells it which entry was added for the image before it.
 *
 * (clang links its sanitizer runtimes into the program itself, which is
 * always first: nothing to do.)  The CLI and the runtime share this file.
 */
#ifndef FNTRACE_SANITIZER_H
#define FNTRACE_SANITIZER_H

#include <stddef.h>

/* The LD_PRELOAD entry put first for the image being started alone. */
#define SAN_ADDED_ENV "FNTRACE_SANITIZER_PRELOAD"

/* The one the program at path names (DT_NEEDED), into out: 1, 0 if none,
 * -1 if the file cannot be read.  No allocation (see elf_needed_find). */
int san_runtime_needed(const char *path, char *out, size_t len);
/* Does the LD_PRELOAD value list name a library of that file name? */
int san_preload_has(const char *list, const char *name);
/*
 * LD_PRELOAD for a program, into out: san (the runtime it needs, NULL if
 * none) first unless old (the value so far, NULL if unset) names it
 * already, then the sanitizer runtimes old names, then lib (NULL: old has
 * it), then old's other entries in their order.  1 if san was added, 0 if
 * not, -1 if it does not fit.
 */
int san_preload(char *out, size_t len, const char *san, const char *lib, const char *old);
/* old without its first entry that is exactly entry, into out; -1 if it
 * does not fit. */
int san_preload_drop(char *out, size_t len, const char *old, const char *entry);

#endif
