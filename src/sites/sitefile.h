/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Side files: the call sites of one linked image, kept outside it in the
 * trace cache and keyed by its GNU build-id, as debuggers keep debug
 * information.  `fntrace recordmcount --image` writes them from the final
 * link (docs/recordmcount.md); site discovery (sites.c) reads them first.
 *
 * The format, version 1, is text, one record per line:
 *
 *   fntrace-sites 1 <arch> <build-id>
 *   <address> <length> <entry|frame> <function address> <function name>
 *   ...
 *
 * Addresses are link-time, in lowercase hex without "0x"; the length is
 * decimal; <arch> is the arch_desc name (x86_64, i386, aarch64, riscv64,
 * mips).  The name runs to the end of the line.  A reader refuses a file
 * whose header is not exactly this, or any line it cannot parse.
 */
#ifndef FNTRACE_SITEFILE_H
#define FNTRACE_SITEFILE_H

#include "../arch/arch.h"

#define SITEFILE_VERSION 1
#define SITEFILE_MAX_ID 129	/* a build-id in hex, with its NUL */

struct sitefile_entry {
	uint64_t addr, func;
	unsigned len;
	unsigned kind;		/* enum site_kind */
	const char *name;	/* inside the file's text */
};

struct sitefile {
	char *text;		/* the whole file, names point into it */
	struct sitefile_entry *v;
	unsigned nr;
};

/* The side file of a build-id: $FNTRACE_CACHE, else $XDG_CACHE_HOME/fntrace,
 * else $HOME/.cache/fntrace, then "/<build-id>.sites".  malloc()ed; NULL
 * when no directory is set or the build-id is not plain hex. */
char *sitefile_path(const char *build_id);
/* The same directory's file of another kind: "<build-id>.<suffix>". */
char *sitefile_cache_path(const char *build_id, const char *suffix);

/* 1 and *out filled if path is a well-formed side file for this arch and
 * build-id; 0 if there is no such file, or none we may open; -1 with a
 * message in err if it is malformed, unreadable or for another image. */
int sitefile_read(const char *path, const char *arch, const char *build_id,
		  struct sitefile *out, char *err, size_t errlen);
void sitefile_free(struct sitefile *sf);

/* The directories leading to path, made if missing; -1 if one cannot be. */
int sitefile_make_dirs(const char *path);

/* Write the sites to path through a temporary file beside it, renamed
 * into place; the directory is made if missing.  -1 and err on failure. */
int sitefile_write(const char *path, const char *arch, const char *build_id,
		   const struct site *v, unsigned n, char *err, size_t errlen);

#endif
