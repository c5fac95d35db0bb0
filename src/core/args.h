/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arguments and return values (set_ftrace_args; record -A/-R): which
 * values of which functions to record, and the capturing path that
 * records them.  A function no spec names never comes near this code: a
 * record's flags say which table entry describes it (FTRACE_FL_ARGS_*),
 * 0 for none, and the graph hooks look only when some spec exists.
 */
#ifndef FNTRACE_ARGS_H
#define FNTRACE_ARGS_H

#include <stddef.h>
#include <stdint.h>

struct ftrace_rec;
struct ft_context;
struct ctl_out;

/* Replace (append = 0) or extend set_ftrace_args with specs, one per line
 * or separated by white space; a bad one changes nothing.  Under
 * ftrace_lock(); patches nothing itself (the caller's update does). */
int ft_args_write(const char *text, int append, char *err, size_t errlen);
/* The specs as written, one per line, handed to emit a piece at a time. */
void ft_args_emit(void (*emit)(void *arg, const char *text, size_t len), void *arg);
/* For the update: the record's FTRACE_FL_ARGS_* bits. */
uint32_t ft_args_rec_flags(const struct ftrace_rec *rec, const char *module);

/* The capturing path: an entry with the arguments its record's flags
 * (as the hook read them) ask for, 1 if they ask for the return value
 * too; and the values of a return before its exit event.  regs: the
 * argument registers as the arch's caller saved them. */
int ft_args_entry(struct ft_context *c, uint32_t id, uint32_t flags, uint64_t now,
		  const uintptr_t *regs);
void ft_args_exit(struct ft_context *c, uint32_t id, uint64_t now, uintptr_t retval);
/* Up to len bytes at p without faulting: the bytes before the first
 * unreadable page; -1 if none.  Also for clone.c's look at a TLS block. */
long ft_args_read(uintptr_t p, char *buf, size_t len);
/* Up to len bytes at p, as process_vm_readv would read them, where it
 * says ENOSYS (qemu-user: args_emulated.c); -1 if none, or not emulated. */
long ft_args_read_emulated(uintptr_t p, char *buf, size_t len);

#endif
