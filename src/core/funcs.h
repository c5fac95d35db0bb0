/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The function table of a recorded process, fntrace.data/funcs-<pid>:
 * which id is which function, and where each module was mapped, so that
 * the report can name what the events only number.
 *
 *   module IDX BIAS START END PATH
 *   func ID ADDR MODIDX NAME
 */
#ifndef FNTRACE_FUNCS_H
#define FNTRACE_FUNCS_H

/* Start writing into dir (NULL: not recording, nothing is written). */
int ft_funcs_open(const char *dir);
/* Append one module and its records. */
void ft_funcs_write_module(unsigned idx);
/* In a forked child: a table of its own, with everything known so far. */
void ft_funcs_reopen_after_fork(void);

#endif
