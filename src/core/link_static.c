// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime linked into a static program (libfntrace.a, by fntrace cc
 * -static).  No loader puts our wrappers first in a lookup: the link
 * does.  fntrace cc passes the linker --wrap=NAME for every function of
 * wrapped.h, so the program's calls to NAME (and libgcc's, libstdc++'s:
 * any reference from another object) go to __wrap_NAME, and __real_NAME
 * is libc's:
 *
 *   program:  call close  ->  __wrap_close:  awake?  jmp close (ours)
 *                                            else    jmp __real_close (libc's)
 *
 * Our own NAME is renamed fntrace.NAME in libfntrace.a's one object (the
 * Makefile keeps only the entry points' names), so no --wrap reaches our
 * own calls to it, nor can libc's NAME be taken for ours.
 * The runtime wakes, or stays dormant, once, at start-up: a program that
 * fntrace does not run meets nothing of ours but a compare at each call
 * to those functions, and its sites are the nops fntrace cc left.
 */
#include "linkage.h"
#include "ftrace.h"
#include "wrap_stub.h"

#include <stdlib.h>
#include <string.h>

/* Read by every __wrap_NAME; written once, before the program's first
 * constructor, while it has one thread. */
__attribute__((used)) int ft_linked_awake;

/* Only 32-bit ABIs have the time64 functions, and only there does the
 * runtime define them. */
#if __TIMESIZE == 32
#define TIME64(x) x
#else
#define TIME64(x)
#endif

/* ---- __real_NAME, libc's, and the stubs ---- */

#define FT_WRAP(name) extern char __real_##name[];
#define FT_WRAP_WEAK(name) extern char __real_##name[] __attribute__((weak));
#define FT_WRAP_TIME64(name) TIME64(FT_WRAP_WEAK(name))
#define FT_WRAP_PRELOADED(name)
#include "wrapped.h"

#define FT_WRAP(name) __asm__(ARCH_WRAP_STUB(#name));
#define FT_WRAP_WEAK(name) __asm__(".weak __real_" #name "\n" ARCH_WRAP_STUB(#name));
#define FT_WRAP_TIME64(name) TIME64(FT_WRAP_WEAK(name))
#define FT_WRAP_PRELOADED(name)
#include "wrapped.h"

struct named {
	const char *name;
	void *fn;
};

static const struct named reals[] = {
#define FT_WRAP(name) { #name, __real_##name },
#define FT_WRAP_TIME64(name) TIME64(FT_WRAP(name))
#define FT_WRAP_PRELOADED(name)
#include "wrapped.h"
};

/* The program's own functions the runtime calls by name: C++ programs
 * have a demangler (libstdc++'s terminate handler pulls it in). */
extern char __cxa_demangle[] __attribute__((weak));

static const struct named program_symbols[] = {
	{ "__cxa_demangle", __cxa_demangle },
};

static void *find(const struct named *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return v[i].fn;
	return NULL;
}

void *ft_real(const char *name)
{
	return find(reals, sizeof(reals) / sizeof(reals[0]), name);
}

/* The program's calls to the functions we wrap always reach the
 * wrappers: asked for one of those (unwind.c), there is nothing else. */
void *ft_program_symbol(const char *name)
{
	return find(program_symbols, sizeof(program_symbols) / sizeof(program_symbols[0]), name);
}

/* ---- where the runtime lies ---- */

uintptr_t ft_own_base(void)
{
	return 0;
}

int ft_in_own_library(const void *addr)
{
	return 0;
}

int ft_own_image(uintptr_t lo, uintptr_t hi)
{
	return 0;
}

int ft_came_with_program(void)
{
	return 1;
}

/*
 * What tells fntrace that the program has the runtime: an ELF note,
 * "fntrace" type 1, which strip keeps.  Read at start-up, so that a link
 * with --gc-sections keeps it too.
 */
struct linked_note {
	uint32_t namesz, descsz, type;
	char name[8];
};

__attribute__((section(".note.fntrace"), used, aligned(4)))
static const struct linked_note linked_note = { 8, 0, 1, "fntrace" };

/* Woken by what fntrace run and record put in the environment: a
 * control endpoint, or a recorder's shared memory. */
int ft_runtime_wanted(void)
{
	const char *control = getenv("FNTRACE_CONTROL");
	const volatile struct linked_note *note = &linked_note;

	ft_linked_awake = note->type && (getenv("FNTRACE_SHM_FD") ||
					 (control && !strcmp(control, "1")));
	return ft_linked_awake;
}
