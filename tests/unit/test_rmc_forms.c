// SPDX-License-Identifier: GPL-2.0
/*
 * The recordmcount tables of every arch (src/arch/<arch>/decode.c): each
 * call form's relocation lies inside its site, and no form's nop is taken
 * for a call again (so a --nop'ed object yields no site, and a site is
 * never nopped twice); and x86_64's and aarch64's rewrite of clang's XRay
 * sleds into return sites, exactly, and only of the sleds they expect.
 */
#include "unit.h"
#include "../../src/arch/arch.h"
#include "../../src/sites/xray_map.h"

#include <elf.h>
#include <stdio.h>

/* Would the units of nop (from form n) match form m at the same place? */
static int nop_matches(const struct mcount_call_form *n, const struct mcount_call_form *m)
{
	if (n->unit != m->unit || m->units > n->units)
		return 0;
	for (unsigned u = 0; u < m->units; u++)
		if ((n->nop[u] & m->mask[u]) != m->match[u])
			return 0;
	return 1;
}

static void check_arch(unsigned machine, const char *name, unsigned word)
{
	const struct arch_desc *a = arch_lookup(machine);
	const struct recordmcount_desc *d = a ? a->rmc : NULL;
	char what[96];
	int inside = 1, fresh = 1, sane = 1;

	snprintf(what, sizeof(what), "%s: has a recordmcount table", name);
	CHECK(what, d && d->nr_forms > 0 && d->word_size == word);
	if (!d)
		return;
	for (unsigned i = 0; i < d->nr_forms; i++) {
		const struct mcount_call_form *f = &d->forms[i];

		sane &= (f->unit == 1 || f->unit == 4) && f->units &&
			f->units <= MCOUNT_FORM_MAX && f->rel_type != d->rel_none;
		inside &= f->start <= 0 && -f->start < f->units * f->unit;
		for (unsigned k = 0; k < d->nr_forms; k++)
			fresh &= !nop_matches(f, &d->forms[k]);
	}
	snprintf(what, sizeof(what), "%s: forms are well-formed", name);
	CHECK(what, sane);
	snprintf(what, sizeof(what), "%s: each relocation lies inside its site", name);
	CHECK(what, inside);
	snprintf(what, sizeof(what), "%s: no nop is taken for a call", name);
	CHECK(what, fresh);
}

/* The bytes of the XRay sled hex, rewritten by machine's recordmcount as
 * kind in a room of len. */
static int sled_of(unsigned machine, unsigned kind, const char *hex, unsigned len,
		   const char *want)
{
	int (*rewrite)(unsigned, uint8_t *, uint64_t) = arch_lookup(machine)->rmc->xray_return_site;
	uint8_t p[40] = { 0 };
	unsigned n = 0, byte;
	int used;

	while (n < sizeof(p) && sscanf(hex, "%2x%n", &byte, &used) == 1) {
		p[n++] = (uint8_t)byte;
		hex += used;
	}
	return rewrite(kind, p, len) == (want != NULL) && unit_bytes_are(p, want ? want : hex);
}

static int sled_becomes(unsigned kind, const char *hex, unsigned len, const char *want)
{
	return sled_of(EM_X86_64, kind, hex, len, want);
}

/* aarch64's sleds: 8 words and the instruction they guard. */
#define A64_SLED	"08 00 00 14" A64_NOPS(7)
#define A64_NOPS(n)	A64_NOPS_##n
#define A64_NOPS_4	" 1f 20 03 d5 1f 20 03 d5 1f 20 03 d5 1f 20 03 d5"
#define A64_NOPS_5	A64_NOPS_4 " 1f 20 03 d5"
#define A64_NOPS_7	A64_NOPS_5 " 1f 20 03 d5 1f 20 03 d5"
#define A64_SITE	"06 00 00 14" A64_NOPS(5) " f0 03 1e aa 1f 20 03 d5"

static void check_xray_aarch64(void)
{
	CHECK("aarch64: an XRay exit sled becomes b #+24; nops; mov x16, x30; nop; ret",
	      sled_of(EM_AARCH64, XRAY_SLED_EXIT, A64_SLED " c0 03 5f d6", 36,
		      A64_SITE " c0 03 5f d6"));
	CHECK("aarch64: a sled before b, or br x9 (clang says exit), becomes the same",
	      sled_of(EM_AARCH64, XRAY_SLED_EXIT, A64_SLED " 05 00 00 14", 36,
		      A64_SITE " 05 00 00 14") &&
	      sled_of(EM_AARCH64, XRAY_SLED_TAIL, A64_SLED " 20 01 1f d6", 36,
		      A64_SITE " 20 01 1f d6"));
	CHECK("aarch64: before br x16 (which the site takes), the target moves to x17",
	      sled_of(EM_AARCH64, XRAY_SLED_EXIT, A64_SLED " 00 02 1f d6", 36,
		      "05 00 00 14" A64_NOPS(4) " f1 03 10 aa f0 03 1e aa 1f 20 03 d5"
		      " 20 02 1f d6"));
	CHECK("aarch64: a sled before anything but ret, b or br, a short room, "
	      "or a word not a nop, is left",
	      sled_of(EM_AARCH64, XRAY_SLED_EXIT, A64_SLED " 00 00 40 f9", 36, NULL) &&
	      sled_of(EM_AARCH64, XRAY_SLED_EXIT, A64_SLED " c0 03 5f d6", 32, NULL) &&
	      sled_of(EM_AARCH64, XRAY_SLED_EXIT, "08 00 00 14" A64_NOPS(5)
		      " 1f 20 03 d5 e0 03 1e aa c0 03 5f d6", 36, NULL));
}

static void check_xray(void)
{
	CHECK("x86_64: an XRay exit sled becomes nopl; ret; nopl",
	      sled_becomes(XRAY_SLED_EXIT, "c3 2e 66 0f 1f 84 00 00 02 00 00", 11,
			   "0f 1f 44 00 00 c3 0f 1f 44 00 00"));
	CHECK("x86_64: ... with its nops split as another -mtune splits them",
	      sled_becomes(XRAY_SLED_EXIT, "c3 0f 1f 80 00 02 00 00 0f 1f 00", 11,
			   "0f 1f 44 00 00 c3 0f 1f 44 00 00"));
	CHECK("x86_64: a tail-call sled becomes nopl; nopw",
	      sled_becomes(XRAY_SLED_TAIL, "eb 09 66 0f 1f 84 00 00 02 00 00", 11,
			   "0f 1f 44 00 00 66 0f 1f 44 00 00"));
	CHECK("x86_64: a sled of the other kind, too short a room, ret imm16, "
	      "or anything but nops after it, is left",
	      sled_becomes(XRAY_SLED_TAIL, "c3 2e 66 0f 1f 84 00 00 02 00 00", 11, NULL) &&
	      sled_becomes(XRAY_SLED_EXIT, "c3 2e 66 0f 1f 84 00 00 02 00 00", 10, NULL) &&
	      sled_becomes(XRAY_SLED_EXIT, "c2 08 00 0f 1f 84 00 00 02 00 00", 11, NULL) &&
	      sled_becomes(XRAY_SLED_EXIT, "c3 0f 1f 44 00 00 0f 1f 40 00 c3", 11, NULL) &&
	      sled_becomes(XRAY_SLED_EXIT, "c3 0f 1f 05 00 00 00 00 90 90 90", 11, NULL) &&
	      sled_becomes(XRAY_SLED_TAIL, "eb 08 66 0f 1f 84 00 00 02 00 00", 11, NULL));
}

int main(void)
{
	check_xray();
	check_xray_aarch64();
	check_arch(EM_X86_64, "x86_64", 8);
	check_arch(EM_386, "i386", 4);
	check_arch(EM_AARCH64, "aarch64", 8);
	check_arch(EM_RISCV, "riscv64", 8);
	check_arch(EM_MIPS, "mips", 4);
	return unit_done();
}
