/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recordmcount: the build-time call-site recorder of the kernel
 * (scripts/recordmcount.c), for one relocatable object at a time.
 *
 *   rmc_check()   is the object one we can process?  (before anything)
 *   rmc_find()    its mcount call sites, from the relocations of its
 *                 executable sections and the arch's mcount_call_form table
 *   rmc_build()   the whole new file in memory: a __mcount_loc section and
 *                 its relocations per text section, optionally the nops
 *
 * None of them writes a file or prints: the command (cmd.c) does, and the
 * fuzzer (tests/fuzz/) drives the same three in memory.
 *
 * The final-image mode (image.c, --image) runs the same finder on an
 * executable or shared object linked with --emit-relocs (ld -q), whose
 * relocations give the sites as they are after the link, relaxation
 * included, and writes them to a side file (src/sites/sitefile.h).
 */
#ifndef FNTRACE_RMC_H
#define FNTRACE_RMC_H

#include <stddef.h>
#include <stdint.h>

#include "../arch/arch.h"
#include "../elf/elf.h"

#define RMC_ERR 200		/* room for one error message */
#define PROG "fntrace-recordmcount"	/* how messages start */

/* One call to mcount in an object. */
struct rmc_site {
	unsigned sec;		/* the executable section holding it */
	uint64_t off;		/* its first byte, from the section start */
	const struct mcount_call_form *form;
	unsigned relsec;	/* the relocation section of the call */
	unsigned rel;		/* the call relocation, in relsec */
	int pair;		/* the paired relocation in relsec, or -1 */
};

struct rmc_sites {
	const struct arch_desc *arch;
	unsigned symtab;	/* the object's SHT_SYMTAB (0: none) */
	struct rmc_site *v;	/* sorted by section, then offset */
	unsigned nr;
	size_t cap;
	/* Sites that follow, in their section, a relocation that lets the
	 * linker delete bytes (riscv relaxation): their entries may go stale. */
	unsigned after_relax;
};

/* A relocation section of code: of an executable section, and in an image
 * one ld -q kept (not a dynamic one). */
int rmc_is_code_relsec(const struct elf_file *f, unsigned sec);
/* Relocation i of relsec, its offset from the start of the section it
 * applies to (an image's relocations carry addresses). */
int rmc_rel_get(const struct elf_file *f, unsigned relsec, unsigned i, struct elf_rel *r);

/* Checks everything rmc_find() and rmc_build() will read: the class and
 * machine, the symbol table and its names, every relocation of every
 * executable section, overlapping sections.  Sets *arch. */
int rmc_check(const struct elf_file *f, const struct arch_desc **arch,
	      char *err, size_t errlen);

/* The sites of a checked object.  nop: the caller will nop them (their
 * paired relax relocations then count for nothing). */
int rmc_find(const struct elf_file *f, const struct arch_desc *arch, int nop,
	     struct rmc_sites *out, char *err, size_t errlen);
void rmc_sites_free(struct rmc_sites *s);

/* The same for a final image: rmc_check_image() says in *relocs whether
 * ld -q kept relocations for its code; rmc_find_image() finds the sites
 * among them, the forms only a linker makes included. */
int rmc_check_image(const struct elf_file *f, const struct arch_desc **arch,
		    int *relocs, char *err, size_t errlen);
int rmc_find_image(const struct elf_file *f, const struct arch_desc *arch,
		   struct rmc_sites *out, char *err, size_t errlen);

/* The name of the function holding offset off of section sec, its start
 * in *start (if not NULL); or "?", *start untouched. */
struct rmc_funcs;
struct rmc_funcs *rmc_funcs_new(const struct elf_file *f, unsigned symtab);
const char *rmc_func_at(const struct rmc_funcs *fs, unsigned sec, uint64_t off,
			uint64_t *start);
void rmc_funcs_free(struct rmc_funcs *fs);

/* A new file image. */
struct rmc_output {
	uint8_t *data;
	size_t size;
	unsigned tables;	/* __mcount_loc sections added */
};

int rmc_build(const struct elf_file *f, const struct rmc_sites *s, int nop,
	      struct rmc_output *out, char *err, size_t errlen);
/* --nop: clang's XRay exit and tail-call sleds in the object, copied to
 * out at the same offsets, rewritten into return sites (xray.c); how
 * many were.  rmc_build() does it for an object with sites. */
unsigned rmc_xray_sleds(const struct elf_file *f, const struct arch_desc *arch, uint8_t *out);
/* The same in a linked image's copy out (its table's addresses relative). */
unsigned rmc_xray_image_sleds(const struct elf_file *f, const struct arch_desc *arch,
			      uint8_t *out);
void rmc_output_free(struct rmc_output *out);

/* The command: fntrace recordmcount / fntrace-recordmcount. */
int cmd_recordmcount(int argc, char **argv);
/* "PROG: path: msg" on stderr; 1, the command's failure status. */
int rmc_file_error(const char *path, const char *msg);
/* --image on one file: list its sites, or write its side file.  many:
 * --list prefixes each line with the path. */
int rmc_image(const char *path, int list, int many);

#endif
