/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a traced function is in its source: "file.c:42", from the DWARF
 * debug information of its module (elfutils' libdw), for report
 * --srcline and the exports.  The line is the one its debug information
 * declares it on (the line with its name), or else the line of its first
 * instruction; the file is named without its directories, which fit no
 * graph line.
 *
 * Modules are opened when first asked about and kept open, with their
 * debug information where it is, or in a separate file (build-id under
 * /usr/lib/debug, .gnu_debuglink); each function's answer is kept too,
 * so asking for every event costs one lookup per function.  A module
 * without debug information (or gone since the recording) gives no
 * lines, and a warning printed once.
 */
#ifndef FNTRACE_SRCLINE_H
#define FNTRACE_SRCLINE_H

#include "../trace/trace_reader.h"

#include <stdint.h>

struct tr_srclines;

/* NULL if out of memory. */
struct tr_srclines *tr_srclines_new(void);
void tr_srclines_free(struct tr_srclines *s);
/* "file.c:42" for function id func of proc, or NULL if unknown; valid
 * until tr_srclines_free(). */
const char *tr_srcline(struct tr_srclines *s, const struct tr_process *proc, uint32_t func);

#endif
