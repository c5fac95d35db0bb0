/* SPDX-License-Identifier: GPL-2.0 */
/*
 * __fntrace_funcs: the function of every call site, as `fntrace cc`'s
 * recordmcount writes it beside __mcount_loc, for the runtime to read in
 * place at start-up: no symbol table to read and sort, no name to look
 * up.  Per text section with sites, one piece, in the target's byte order:
 *
 *   u32 FUNCTABLE_MAGIC
 *   u32 nr                  its entries
 *   u32 size                the piece's bytes, a multiple of 4
 *   nr entries of 3 words:
 *     s32 site              the site's address less this word's: a
 *                           PC-relative relocation the link resolves
 *     u32 name              the function's name, from the piece's start
 *     u32 entry             the site's address less the function's, or
 *                           FUNCTABLE_NO_FUNC: no symbol holds it
 *   the names, each ended by a NUL, then zeros up to size
 *
 * Read-only and needing no load-time relocation, the section is mapped
 * with the image and costs a program nothing.  Each piece is linked in
 * its text's order (SHF_LINK_ORDER) and dropped with it: an image whose
 * pieces hold as many entries as its __mcount_loc has words came whole
 * from `fntrace cc`; any other reads __mcount_loc as before.
 */
#ifndef FNTRACE_FUNCTABLE_H
#define FNTRACE_FUNCTABLE_H

#include "sites.h"

#define FUNCTABLE_NAME		"__fntrace_funcs"
#define FUNCTABLE_MAGIC		0x31544e46u	/* "FNT1" read as little-endian */
#define FUNCTABLE_HEAD		12
#define FUNCTABLE_ENTRY		12
#define FUNCTABLE_NO_FUNC	0xffffffffu

/* The sites of an image from its __fntrace_funcs, when it names as many
 * as __mcount_loc (section loc) has words: 1 with out->v and nr filled
 * (unsorted), 0 when the image is to be read otherwise (no such section,
 * another count, anything malformed), -1 out of memory.  Names point
 * into f. */
int functable_sites(const struct elf_file *f, int loc, struct image_sites *out);

#endif
