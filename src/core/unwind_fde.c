// SPDX-License-Identifier: GPL-2.0
/*
 * glibc cancels a thread by unwinding it with libgcc's
 * _Unwind_ForcedUnwind, which it calls through a pointer: no wrapper of
 * ours runs first to give the frames their real return addresses back
 * (unwind.c does that for C++ throws).  The unwinder would meet
 * return_to_handler as a return address, find no frame description for
 * it, and stop there: the destructors of the frames above would not run.
 *
 * libgcc looks frame descriptions up through its PLT, so this
 * _Unwind_Find_FDE is asked first.  For return_to_handler it answers
 * with a frame that is not there (fde_write.c): same stack
 * pointer, same registers, and the real return address from the shadow
 * stack.  The unwinder steps through it into the real caller.
 *
 * Which shadow frame: the one whose return slot belongs to the CFA the
 * unwinder stands at.  libgcc passes &context->bases, and its struct
 * _Unwind_Context has kept cfa, ra and lsda just before bases since
 * GCC 4.  Only if the ra there is return_to_handler is the layout
 * trusted; otherwise the answer is libgcc's own.
 */
#include "events.h"
#include "tracers.h"

#include <dlfcn.h>

struct dwarf_eh_bases {
	void *tbase;
	void *dbase;
	void *func;
};

typedef const void *(*find_fde_fn)(void *pc, struct dwarf_eh_bases *bases);

/* libgcc's own.  glibc loads libgcc_s for cancellation privately, out of
 * every lookup's sight: then ask the library itself, through the real
 * dlopen (ours would refresh the modules, inside the unwinder). */
static find_fde_fn real_find_fde(void)
{
	typedef void *(*dlopen_fn)(const char *, int);
	static find_fde_fn real;
	dlopen_fn real_dlopen;
	void *libgcc;

	if (real)
		return real;
	real = (find_fde_fn)ft_real("_Unwind_Find_FDE");
	real_dlopen = (dlopen_fn)ft_real("dlopen");
	if (!real && real_dlopen &&
	    (libgcc = real_dlopen("libgcc_s.so.1", RTLD_LAZY | RTLD_NOLOAD)))
		real = (find_fde_fn)dlsym(libgcc, "_Unwind_Find_FDE");
	return real;
}

/* The real return address the unwinder is looking for, if pc is the
 * return to return_to_handler of one of this thread's frames; else 0. */
static uintptr_t hijacked_return(void *pc, const struct dwarf_eh_bases *bases)
{
	uintptr_t handler = (uintptr_t)return_to_handler;
	void *const *context = (void *const *)bases;
	const struct ft_thread *t = ft_current;

	if ((uintptr_t)pc + 1 != handler || !t || !(t->own.depth || t->signal.depth) || context[-2] != (void *)handler)
		return 0;
	return graph_real_return(t, arch_return_slot((uintptr_t)context[-3]));
}

FT_EXPORT const void *_Unwind_Find_FDE(void *pc, struct dwarf_eh_bases *bases)
{
	static __thread _Alignas(8) unsigned char frame[64];
	uintptr_t ret = hijacked_return(pc, bases);
	find_fde_fn real;

	if (ret) {
		bases->tbase = bases->dbase = NULL;
		bases->func = pc;
		return ftrace_transparent_fde(frame, sizeof(frame), (uintptr_t)pc, ret);
	}
	real = real_find_fde();
	return real ? real(pc, bases) : NULL;
}
