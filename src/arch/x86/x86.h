/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What i386 and x86_64 decode alike, as the kernel's arch/x86 shares it:
 * little-endian rel32, the endbr that may open a function, and the search
 * of a function's head for its mcount call.  Each flavor fills in a
 * struct x86_flavor with its own bytes and decoders.
 */
#ifndef FNTRACE_ARCH_X86_H
#define FNTRACE_ARCH_X86_H

#include "../arch.h"

#include <stddef.h>
#include <string.h>

/* How far into a function the -pg call may be: clang saves registers
 * first, gcc on i386 sets up the GOT pointer. */
#define X86_MAX_HEAD 64

struct x86_flavor {
	const uint8_t *endbr;		/* 4 bytes: endbr64 or endbr32 */
	const uint8_t *frame_setup;	/* push %bp; mov %sp,%bp */
	size_t frame_setup_len;
	const uint8_t *realign;		/* i386 main()'s stack realignment, */
	size_t realign_len;		/* which may come before it; or none */
	/* Length of the mcount call at addr (bytes p[0..avail)), or 0. */
	unsigned (*call_at)(const struct elf_file *f, const struct mcount_targets *t,
			    uint64_t addr, const uint8_t *p, uint64_t avail);
	/* Length (and SITE_* flags) of the site instruction a table names
	 * at p (6 bytes readable), or 0 if it is none. */
	unsigned (*table_site_len)(const uint8_t *p, uint8_t *flags);
};

/* x86_64's System V classification of an aggregate argument (abi.c). */
enum arch_pass x86_64_place_aggregate(struct arch_scalar *v, unsigned n, uint32_t size,
				      unsigned int_free, unsigned fp_free,
				      unsigned *ints, unsigned *fps);

/*
 * The call a site of len bytes holds when enabled, one instruction at
 * either length: "e8 rel32", or "67 e8 rel32" (an addr32 prefix pads it,
 * as ld pads a call it relaxes).  -1 for another length.
 */
static inline int x86_write_call(unsigned len, uint32_t rel32, uint8_t *insn)
{
	unsigned prefix = len - 5;

	if (len < 5 || len > 6)
		return -1;
	if (prefix)
		insn[0] = 0x67;
	insn[prefix] = 0xe8;
	memcpy(insn + prefix + 1, &rel32, 4);
	return 0;
}

/* The target of such a call at addr; 0 if insn is not one. */
static inline uintptr_t x86_call_target(uintptr_t addr, const uint8_t *insn, unsigned len)
{
	unsigned prefix = len - 5;
	int32_t rel;

	if (len < 5 || len > 6 || (prefix && insn[0] != 0x67) || insn[prefix] != 0xe8)
		return 0;
	memcpy(&rel, insn + prefix + 1, 4);
	return addr + len + (uintptr_t)(intptr_t)rel;
}

/* A detour copy's rel32 or disp32 at p, "a target minus an address in
 * the copy", for the copy moved from "from" to "to"; -1 if it no longer
 * fits (detour files, core/detours.c). */
static inline int x86_reaim_rel32(uint8_t *p, uint64_t from, uint64_t to)
{
	int32_t v;
	int64_t nv;

	memcpy(&v, p, 4);
	nv = (int64_t)v - (int64_t)(to - from);
	if (nv != (int32_t)nv)
		return -1;
	memcpy(p, &(int32_t){ (int32_t)nv }, 4);
	return 0;
}

int32_t x86_rel32(const uint8_t *p);
uint64_t x86_skip_endbr(const struct x86_flavor *x, const struct elf_file *f, uint64_t addr);
int x86_find_site(const struct x86_flavor *x, const struct elf_file *f,
		  const struct mcount_targets *t, uint64_t func, uint64_t size,
		  struct site *out);
int x86_check_site(const struct x86_flavor *x, const struct elf_file *f, uint64_t addr,
		   uint64_t func, struct site *out);

#endif
