/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Detours (detours.c): functions built without call sites, made records
 * whose MAKE_CALL puts a jump at the entry to a stub of ours.
 */
#ifndef FNTRACE_DETOURS_H
#define FNTRACE_DETOURS_H

#include <stdint.h>

struct ft_module;
struct elf_file;
struct text_patch;

/* A module with no call sites: the detours its detour file plans, each a
 * record (disabled if its bytes are not the plan's), stubs written; and
 * the pc fix of ThreadSanitizer's hook, patched in.  fixes_only: a module
 * with call sites, the fix alone. */
int ftrace_detours_read(struct ft_module *mod, unsigned idx, const struct elf_file *f,
			int fixes_only);
/* Read with no plan, has one appeared in the cache since? */
int ftrace_detours_planned_since(const struct ft_module *mod);
/* Its detours' lines in funcs-PID, for those read late. */
void ftrace_detours_announce(const struct ft_module *mod, unsigned idx);
void ftrace_detours_unload(const struct ft_module *mod);
/* Where a stub's pc stands for in its function, if pc is the jump back
 * a moved call returns to (the unwinder's view, unwind_fde.c); else 0.
 * Lock-free: for any thread, at any time. */
uintptr_t ftrace_detour_resumes(uintptr_t pc);
/* The entry's patch (enable: to the jump; else back). */
int ftrace_detour_patch(uint32_t id, int enable, struct text_patch *p);

#endif
