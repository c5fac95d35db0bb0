/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An image's function symbols, sorted by address with one name per
 * address: what site discovery (sites.c) names each site's function by.
 */
#ifndef FNTRACE_FUNCSYMS_H
#define FNTRACE_FUNCSYMS_H

#include "../elf/elf.h"

#include <stdint.h>

/* 24 bytes: 100 000 of them, and their copy in the sort, are touched
 * for the first time at a recording's start, a fault every 4 KiB. */
struct funcsym {
	uint64_t addr;
	const char *name;
	uint32_t size;		/* a function of 4 GiB or more is cut short */
	uint32_t bind;
};

struct funcsyms {
	struct funcsym *v;
	unsigned nr;
};

/* The function symbols of f (its .symtab, else .dynsym) by address;
 * among aliases the global name, then the weak, then a local one.  -1 if
 * out of memory.  Names point into f. */
int funcsyms_collect(const struct elf_file *f, struct funcsyms *out);
void funcsyms_free(struct funcsyms *fs);

/* The function containing addr, or NULL.  *hint (0 at first) is where
 * the last search ended: addresses asked in order cost no search. */
const struct funcsym *funcsyms_at(const struct funcsyms *fs, uint64_t addr, unsigned *hint);

#endif
