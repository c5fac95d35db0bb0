/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files fntrace attach staged beside the runtime for a process that
 * cannot open them by their own paths (staged.c).
 */
#ifndef FNTRACE_STAGED_H
#define FNTRACE_STAGED_H

#include <stddef.h>

/* Where to open the mapped file path: its staged copy (in buf) if it has
 * one, else path. */
const char *ft_staged_path(const char *path, char *buf, size_t len);
/* The program's path as the attacher saw it, into buf: 0, or -1 if the
 * runtime was not staged. */
int ft_staged_program(char *buf, size_t len);

#endif
