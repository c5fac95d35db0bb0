/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --auto-args: argument specs from the program's DWARF.
 */
#ifndef FNTRACE_AUTO_ARGS_H
#define FNTRACE_AUTO_ARGS_H

#include <stdio.h>

struct arch_desc;

/* Writes to out a spec (-A/-R syntax, one per line, each argument named)
 * for each function program defines whose parameters its DWARF
 * describes, by arch's rules; how many, or -1 after one line saying why
 * not. */
int auto_args_write(const char *program, const struct arch_desc *arch, FILE *out);

#endif
