/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --auto-args: argument specs from the program's DWARF.
 */
#ifndef FNTRACE_AUTO_ARGS_H
#define FNTRACE_AUTO_ARGS_H

#include <stdio.h>
#include <sys/types.h>

struct arch_desc;

/* Writes to out a spec (-A/-R syntax, one per line, each argument named)
 * for each function program defines whose parameters its DWARF
 * describes, by arch's rules, and to enums the names of its enum values
 * ("FUNC\tPOS\tVALUE\tNAME" lines; POS 0: the return value); how many
 * functions, or -1 after one line saying why not. */
int auto_args_write(const char *program, const struct arch_desc *arch, FILE *out,
		    FILE *enums);
/* The same for the program process pid runs, as text (malloc'd): the
 * specs, and the enums' lines in *enums; NULL after one line. */
char *auto_args_of_process(pid_t pid, char **enums);

#endif
