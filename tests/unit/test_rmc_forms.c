// SPDX-License-Identifier: GPL-2.0
/*
 * The recordmcount tables of every arch (src/arch/<arch>/decode.c): each
 * call form's relocation lies inside its site, and no form's nop is taken
 * for a call again (so a --nop'ed object yields no site, and a site is
 * never nopped twice).
 */
#include "unit.h"
#include "../../src/arch/arch.h"

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

int main(void)
{
	check_arch(EM_X86_64, "x86_64", 8);
	check_arch(EM_386, "i386", 4);
	check_arch(EM_AARCH64, "aarch64", 8);
	check_arch(EM_RISCV, "riscv64", 8);
	check_arch(EM_MIPS, "mips", 4);
	return unit_done();
}
