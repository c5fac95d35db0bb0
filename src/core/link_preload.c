// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime as libfntrace.so, preloaded (fntrace run, record) or loaded
 * by fntrace attach: the functions it wraps are the next definitions in
 * the loader's lookup order, or, attached, the ones the program's own
 * lookups find (ours are local then, and come last).
 */
#include "linkage.h"
#include "ftrace.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static uintptr_t own_base;		/* libfntrace.so's load address */

/* Where libfntrace.so lies (its ELF header: the first page it maps),
 * found before anything asks ft_real(): at start-up, which may come
 * before our constructors (early.c). */
__attribute__((constructor(101))) static void find_self(void)
{
	Dl_info info;

	if (!own_base && dladdr((void *)find_self, &info))
		own_base = (uintptr_t)info.dli_fbase;
}

uintptr_t ft_own_base(void)
{
	find_self();
	return own_base;
}

/* (dladdr takes the loader's lock: inside dl_iterate_phdr, a module is
 * ours if its bias is own_base.) */
int ft_in_own_library(const void *addr)
{
	Dl_info info;

	return ft_own_base() && dladdr(addr, &info) && (uintptr_t)info.dli_fbase == own_base;
}

void *ft_real(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn || ft_in_own_library(fn))
		fn = dlsym(RTLD_DEFAULT, name);
	return fn && !ft_in_own_library(fn) ? fn : NULL;
}

void *ft_program_symbol(const char *name)
{
	return dlsym(RTLD_DEFAULT, name);
}

int ft_own_image(uintptr_t lo, uintptr_t hi)
{
	uintptr_t self = (uintptr_t)&ft_own_image;

	return lo <= self && self < hi;
}

/* Is our file in LD_PRELOAD? */
int ft_came_with_program(void)
{
	const char *preload = getenv("LD_PRELOAD");
	Dl_info info;

	return preload && dladdr((void *)ft_came_with_program, &info) && info.dli_fname &&
	       strstr(preload, info.dli_fname);
}

int ft_runtime_wanted(void)
{
	return 1;
}
