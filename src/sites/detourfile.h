/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Detour files: the detours of one linked image, planned by the fntrace
 * program (which has the disassembler, src/detour/) and applied by the
 * runtime (src/core/detours.c), which has none.  Kept beside the side
 * files of call sites in the trace cache, keyed by the image's build-id:
 * "<build-id>.detours".
 *
 * The format, version 1, is text, one function a line:
 *
 *   fntrace-detours 1 <arch> <build-id>
 *   <patch> <len> <orig> <copy> <relocs> <function address> <name>
 *
 * <patch>: where the jump goes (link-time, hex, no "0x"); <len>: the
 * bytes the planner replaced, decimal; <orig>: those bytes, in hex (two
 * digits a byte); <copy>: the trampoline's copy of them relocated as if
 * the trampoline were at <patch> itself, the jump back included; <relocs>:
 * the offsets in <copy>, decimal and comma-separated, or "-", of the
 * 32-bit fields relative to where the copy runs, each re-aimed by the
 * architecture for a copy moved (arch_detour_reaim): x86_64's rel32 and
 * disp32, "target minus an address in the copy", each made d smaller for
 * a copy moved d bytes; aarch64's B, BL and ADRP words, re-encoded for
 * the same target.  The name runs to the end of the line.
 */
#ifndef FNTRACE_DETOURFILE_H
#define FNTRACE_DETOURFILE_H

#include <stddef.h>
#include <stdint.h>

#define DETOURFILE_VERSION 1
#define DETOUR_MAX_LEN 16		/* bytes replaced */
#define DETOUR_MAX_COPY 96		/* bytes of a relocated copy */
#define DETOUR_MAX_RELOCS 8

struct detourfile_entry {
	uint64_t patch, func;
	uint8_t len, copy_len, nr_relocs;
	uint8_t orig[DETOUR_MAX_LEN];
	uint8_t copy[DETOUR_MAX_COPY];
	uint8_t relocs[DETOUR_MAX_RELOCS];
	const char *name;	/* inside the file's text (the writer's: its own) */
};

struct detourfile {
	char *text;
	struct detourfile_entry *v;
	unsigned nr;
};

/* 1 and *out filled if path is a well-formed detour file for this arch
 * and build-id; 0 if there is none (or none we may open); -1 and err if
 * it is malformed or for another image. */
int detourfile_read(const char *path, const char *arch, const char *build_id,
		    struct detourfile *out, char *err, size_t errlen);
void detourfile_free(struct detourfile *df);
/* Written through a temporary file renamed into place, its directory
 * made if missing.  -1 and err on failure. */
int detourfile_write(const char *path, const char *arch, const char *build_id,
		     const struct detourfile_entry *v, unsigned n, char *err, size_t errlen);

#endif
