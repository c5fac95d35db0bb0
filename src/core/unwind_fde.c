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
 *
 * A detour's stub is the other place with no frame description: a call
 * moved into it (the last instruction its entry's jump replaced: push
 * %rbx; call g) returns to the stub's jump back to f + len (detours.c).
 * There the frame is the function's at f + len, the moved instructions
 * having done what they did in f.  So the answer is f's own FDE, asked
 * for f + len, and the context's ra becomes f + len too: libgcc runs the
 * FDE's program up to context->ra, the personality looks the landing pad
 * up by it (in f's body, where the handler then runs), and a backtrace
 * reads it: f + len, as untraced.  The layout is trusted only if the ra
 * there is the jump back pc came from.  Registering FDEs for the stubs
 * (__register_frame) would need a copy of f's rows per stub, rewritten
 * for the stub's addresses, and a call-site table for the personality,
 * whose landing pads are in f: a new LSDA per stub.
 */
#include "detours.h"
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

/* If pc is the return of a call moved into a stub (ra the jump back, pc
 * ra - 1, or ra itself in a signal frame): the ra made the address the
 * jump goes to, and pc moved with it.  Else pc. */
static void *moved_return(void *pc, const struct dwarf_eh_bases *bases)
{
	void **context = (void **)bases;
	uintptr_t ra = (uintptr_t)context[-2], to;

	if ((uintptr_t)pc + 1 != ra && (uintptr_t)pc != ra)
		return pc;
	if (!(to = ftrace_detour_resumes(ra)))
		return pc;
	context[-2] = (void *)to;
	return (void *)(to - (ra - (uintptr_t)pc));
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
	return real ? real(moved_return(pc, bases), bases) : NULL;
}
