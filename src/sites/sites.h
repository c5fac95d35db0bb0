/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding the call sites of one ELF image (executable or shared object),
 * at link-time addresses.  Used by the runtime for every module it maps,
 * and by `fntrace list`.
 */
#ifndef FNTRACE_SITES_H
#define FNTRACE_SITES_H

#include "../arch/arch.h"

/* Where the sites of an image were found. */
enum sites_source {
	SOURCE_NONE,		/* the image has no call sites */
	SOURCE_SIDEFILE,	/* its side file (sitefile.h): recordmcount --image */
	SOURCE_FUNCTABLE,	/* __fntrace_funcs (functable.h): fntrace cc */
	SOURCE_MCOUNT_LOC,	/* __mcount_loc: gcc -mrecord-mcount, recordmcount */
	SOURCE_PATCHABLE,	/* __patchable_function_entries */
	SOURCE_SCAN,		/* decoded from each function's head (-pg) */
};

struct image_sites {
	const struct arch_desc *arch;
	enum sites_source source;
	struct site *v;		/* sorted by address, one per function */
	unsigned nr;
	unsigned skipped;	/* named by a table but not a site we know */
	char *text;		/* the side file the names point into, if any */
	/* Set when a side file was found but not used: one line for the
	 * caller to print (the runtime and `fntrace list` do). */
	char warning[256];
};

/* Fills *out; names point into f, so keep f open while using them.
 * Returns -1 with a message in err for an image fntrace cannot read.
 * The image's side file comes first, then the tables in it, then a
 * search of every function's head. */
int sites_discover(const struct elf_file *f, struct image_sites *out,
		   char *err, size_t errlen);
/* Where this process mapped the image: its load bias, and the range
 * its segments span. */
struct sites_mapping {
	uint64_t bias;
	uintptr_t lo, hi;
};
/* The table section sec (pointer-sized entries, as __mcount_loc and
 * __return_loc are) where this process mapped it, its entries in *n;
 * NULL if it is not such a table, is empty, or lies outside map. */
const uintptr_t *sites_table_mapped(const struct elf_file *f, int sec,
				    const struct sites_mapping *map, size_t *n);
/* sites_discover() for an image this process mapped: a table whose
 * relocated copy in memory agrees with the file is taken without reading
 * its relocations.  Addresses are still the link-time ones. */
int sites_discover_mapped(const struct elf_file *f, const struct sites_mapping *map,
			  struct image_sites *out, char *err, size_t errlen);
/* For recordmcount --image, which knows where the calls are: the sites
 * at these addresses, each checked as a table's entries are (the source
 * stays SOURCE_NONE: the caller knows where they came from) ... */
int sites_from_addrs(const struct elf_file *f, const uint64_t *addrs, unsigned n,
		     struct image_sites *out, char *err, size_t errlen);
/* ... or when it does not, the search of every function's head. */
int sites_scan(const struct elf_file *f, struct image_sites *out,
	       char *err, size_t errlen);
/* One entry of a table, checked as discovery checks it but without the
 * function around it (the kind may be wrong): 1 with *out filled, 0 if
 * addr is not a site.  A quick look at a few entries, no symbol read. */
int sites_check_entry(const struct elf_file *f, uint64_t addr, struct site *out);
/* 1 if one of the first entries of a table is a site: the image surely
 * has some; 0 says nothing (sites_discover knows).  For a quick yes. */
int sites_quick_any(const struct elf_file *f);
/* The entries of an image's tables that name no function the runtime can
 * find: in a stripped image (no .symtab) that no __fntrace_funcs names
 * (clang's LTO code, a -pg build not made by fntrace cc), every one.
 * 0 when it has a symbol table or its sites are named. */
unsigned sites_unnamed(const struct elf_file *f);
void sites_free(struct image_sites *s);
const char *sites_source_name(enum sites_source source);

/* 1 if a symbol names what a -pg build calls at every entry: mcount,
 * _mcount or __fentry__.  A linked image's symbol table may name it with
 * glibc's version ("_mcount@GLIBC_2.27"): only what precedes the '@'
 * counts.  Site discovery and recordmcount both ask this. */
int is_mcount_name(const char *name);

#endif
