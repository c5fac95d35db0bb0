/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The messages of the code the commands share (the trace library
 * above all): one line each, at a level, handed to a printer the caller
 * may replace, as libbpf_set_print() does.  The library returns its
 * errors and says why through the printer; only the default one writes
 * to stderr, so that a reader whose stderr is not the user's terminal
 * (a flight recorder, a remote listener) can take the lines itself.
 * The runtime never prints here: inside the traced process, messages
 * go their own way (src/core/messages.c).
 */
#ifndef FNTRACE_PRINT_H
#define FNTRACE_PRINT_H

#include <stdarg.h>

enum print_level {
	PRINT_ERROR,	/* what was asked for failed */
	PRINT_WARN,	/* it goes on, with less than it could show */
	PRINT_INFO,
	PRINT_DEBUG,
};

/* One line, from fmt and ap: without a prefix or newline. */
typedef void print_fn(enum print_level level, const char *fmt, va_list ap);

/* The default: "fntrace: " and the line on stderr ("fntrace: warning: "
 * for a warning), debug lines left out. */
void print_stderr(enum print_level level, const char *fmt, va_list ap);

/* fn prints from now on (NULL: nothing does); returns the printer it
 * replaces.  Set before the library runs, not while another thread of
 * the process may print. */
print_fn *set_print(print_fn *fn);

void print_at(enum print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void vprint_at(enum print_level level, const char *fmt, va_list ap);

#define pr_error(...) print_at(PRINT_ERROR, __VA_ARGS__)
#define pr_warn(...) print_at(PRINT_WARN, __VA_ARGS__)

#endif
