// SPDX-License-Identifier: GPL-2.0
/*
 * The printer of the shared code's messages (print.h): the one place
 * that decides where they go.
 */
#include "print.h"

#include <stdio.h>

static print_fn *printer = print_stderr;

void print_stderr(enum print_level level, const char *fmt, va_list ap)
{
	if (level == PRINT_DEBUG)
		return;
	flockfile(stderr);
	fputs(level == PRINT_WARN ? "fntrace: warning: " : "fntrace: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

print_fn *set_print(print_fn *fn)
{
	print_fn *old = printer;

	printer = fn;
	return old;
}

void vprint_at(enum print_level level, const char *fmt, va_list ap)
{
	if (printer)
		printer(level, fmt, ap);
}

void print_at(enum print_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_at(level, fmt, ap);
	va_end(ap);
}
