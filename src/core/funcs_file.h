/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The function table of a traced process, as fntrace.data/funcs-<pid>
 * holds it: which id is which function, and where each module was mapped,
 * so that the report can name what the events only number.
 *
 *   module IDX BIAS START END PATH
 *   func ID ADDR MODIDX NAME
 */
#ifndef FNTRACE_FUNCS_FILE_H
#define FNTRACE_FUNCS_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Start writing into dir (NULL: not recording, nothing is written). */
int ft_funcs_open(const char *dir);
/* Append one module and its records. */
void ft_funcs_write_module(unsigned idx);
/* One record's line, of module idx: a library call, once bound. */
void ft_funcs_write_rec(uint32_t id, unsigned idx);
/* In a forked child: a table of its own, with everything known so far. */
void ft_funcs_reopen_after_fork(void);
/* In a vfork() child: a table of its own, its parent's as it is now. */
void ft_funcs_write_for_child(void);

/* The program has no call sites: the report will say it was not traced. */
void ft_funcs_note_untraced(const char *path);
/* Which program of the process this is: 0, and one more after each exec. */
extern uint32_t ft_image;

/* The whole table, handed line by line to emit. */
void ft_funcs_emit(void (*emit)(void *arg, const char *line, size_t len), void *arg);

/* The table of the process pid (image): ours, the recording's file of
 * another, or ours for a child forked since the attach; -1 if none. */
int ft_funcs_emit_for(uint32_t pid, uint32_t image,
		      void (*emit)(void *arg, const char *line, size_t len), void *arg);

#endif
