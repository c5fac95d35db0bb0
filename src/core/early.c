// SPDX-License-Identifier: GPL-2.0
/*
 * Calls made before the runtime has seen their module: a -pg site still
 * calls mcount.  glibc runs the constructors of the libraries a program
 * links before those of a preloaded libfntrace.so (the object loaded
 * last, a dependency of nothing, comes first), and a dlopen()ed
 * library's constructors inside dlopen, before the wrapper can read it.
 * Both times the site's call reaches the runtime's mcount, which comes
 * here while ft_mcount_slow says it may be useful: the runtime starts
 * (or reads the new module) right away, and the site is run again, now
 * that it calls the tracer.  Sites that are nops already (fntrace cc)
 * call nothing and cannot be caught this way: what fntrace cc links
 * calls the runtime itself first (fntrace_preinit, fntrace_module_init
 * in runtime.c).
 */
#include "early.h"
#include "ftrace.h"
#include "runtime.h"

#include <stdatomic.h>
#include <unistd.h>

/* Read by the mcount of x86_64 and aarch64 (the others' only return):
 * not zero while the runtime has not started, and while some thread is
 * inside dlopen(). */
_Atomic int ft_mcount_slow = 1;

static __thread unsigned own_dlopens;	/* this thread's, nested */
static __thread int inside;		/* no early start inside another */

void ft_early_dlopen_enter(void)
{
	own_dlopens++;
	atomic_fetch_add(&ft_mcount_slow, 1);
}

void ft_early_dlopen_leave(void)
{
	atomic_fetch_sub(&ft_mcount_slow, 1);
	own_dlopens--;
}

void ft_early_started(void)
{
	atomic_fetch_sub(&ft_mcount_slow, 1);
}

/* Where the caller of mcount goes on: back to its site if that calls
 * the tracer now, so that this call is traced too; else on past it. */
static uintptr_t resume_at(uintptr_t ret)
{
	uint32_t id = ftrace_rec_lookup_outside(ret);
	struct ftrace_rec *rec = id ? ftrace_rec_get(id) : NULL;

	return rec && (rec->flags & FTRACE_FL_ENABLED) ? rec->ip : ret;
}

/*
 * A -pg ifunc resolver calls mcount while the loader relocates: maybe
 * before our own relocation (our GOT, TLS offsets and libc calls not yet
 * usable), or before libc's.  Nothing may run then.  A pointer to itself
 * holds its own address only once we are relocated, and libc sets
 * environ in its initialiser, which comes after every relocation (or
 * fntrace_preinit does, from the program's .preinit_array, as late).
 */
static const void *const self_pointer = &self_pointer;

static int loader_done(void)
{
	const void *const volatile *p = &self_pointer;

	return *p == (const void *)&self_pointer && environ;
}

/* ret: the return address of a site that called mcount.  The address to
 * go on at. */
uintptr_t ft_mcount_early(uintptr_t ret)
{
	if (!loader_done())
		return ret;
	if (inside)
		return ret;
	inside = 1;
	if (!ft_runtime_started())
		ft_runtime_start();
	else if (own_dlopens && !ftrace_rec_lookup_outside(ret))
		ft_module_arrived(ret);
	inside = 0;
	return ft_runtime_started() ? resume_at(ret) : ret;
}
