/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Library calls (libcalls.c): a traced module's calls through its GOT,
 * records whose MAKE_CALL points a slot at a stub of ours.
 */
#ifndef FNTRACE_LIBCALLS_H
#define FNTRACE_LIBCALLS_H

#include <stdint.h>

struct ft_module;
struct ftrace_rec;
struct elf_file;

/* A record per library call of a module that has call sites: its
 * JUMP_SLOT slots, and the GLOB_DAT slots its code only calls through
 * (libcalls_read.c) ... */
int ftrace_libcalls_read(struct ft_module *mod, unsigned idx, const struct elf_file *f);
/* ... each made a record here (libcalls.c), disabled until bound. */
int ftrace_libcall_add(struct ft_module *mod, unsigned idx, uintptr_t slot, const char *name,
		       const char *version);
void ftrace_libcalls_unload(const struct ft_module *mod);
void ftrace_libcalls_rebase(const struct ft_module *mod, uintptr_t old_bias);
uint32_t ftrace_libcalls_count(void);
/* Inside the pin: each slot not bound yet gets its target, from its
 * word or from the last lookup; its record, until then disabled, becomes
 * a function of the callee's module (its funcs line written).  How many
 * were bound: the records' hash wants them. */
unsigned ftrace_libcalls_bind(void);
/* Outside the pin, under ftrace_lock: the lazy slots' targets found as
 * the dynamic linker would find them, for the next binding; how many. */
unsigned ftrace_libcalls_lookup(void);
/* Inside the pin: the calls bound into module callee, which has
 * detours since, let go (a slot switched on, switched off first). */
int ftrace_libcalls_let_go(unsigned callee);
/* The module a bound library call reaches; -1 if not bound. */
int ftrace_libcall_callee(uint32_t id);

/* A GOT slot's store, verified first as a site's bytes are. */
struct got_patch {
	uint32_t id;
	int enable;
	uintptr_t slot;
	uintptr_t old;		/* the word expected ... */
	uintptr_t alt;		/* ... or the one the loader binds it to */
	uintptr_t new;
};

/* The record's store (enable: to its stub; else back); -1 if the record
 * cannot be switched on (its target not known). */
int ftrace_libcall_patch(uint32_t id, int enable, struct got_patch *p);
int got_patch_verify(const struct got_patch *v, unsigned n);
int got_patch_write(struct got_patch *v, unsigned n);

#endif
