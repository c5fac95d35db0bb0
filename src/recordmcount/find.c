// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the mcount calls of a relocatable object.  The relocations say
 * where a call to mcount may be; the arch's mcount_call_form table says
 * which relocation types are calls and what the instruction bytes around
 * them must be.  Both must agree: a relocation against mcount that is not
 * a call (taking its address, a tail jump) is no site, nor are bytes that
 * look like a call without a relocation.  Nothing here names an opcode or
 * a relocation type.
 */
#include "rmc.h"
#include "../common/array.h"
#include "../common/sort.h"
#include "../sites/sites.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One byte per symbol: 1 if it names mcount, so each relocation costs one load. */
static uint8_t *mcount_symbols(const struct elf_file *f, unsigned symtab)
{
	unsigned n = elf_sym_count(f, symtab);
	uint8_t *v = calloc(n ? n : 1, 1);

	for (unsigned i = 1; v && i < n; i++) {
		struct elf_sym s;

		v[i] = !elf_sym_get(f, symtab, i, &s) && is_mcount_name(s.name);
	}
	return v;
}

/* The form among forms[0..n) of the call at relocation r, its site start
 * in *start; NULL if none. */
static const struct mcount_call_form *match_form(const struct elf_file *f,
						 const struct mcount_call_form *forms,
						 unsigned n, unsigned sec,
						 const struct elf_rel *r, uint64_t *start)
{
	const struct elf_section *s = &f->sections[sec];

	for (unsigned i = 0; i < n; i++) {
		const struct mcount_call_form *form = &forms[i];
		uint64_t len = (uint64_t)form->units * form->unit;

		if (form->rel_type != r->type)
			continue;
		if (form->start < 0 && r->offset < (uint64_t)-form->start)
			continue;
		*start = r->offset + form->start;
		if (*start > s->size || len > s->size - *start)
			continue;
		if (mcount_form_matches(f, form, f->data + s->offset + *start))
			return form;
	}
	return NULL;
}

/* In an image, the forms only a linker makes come first: "67 e8" holds
 * an "e8" one byte in, which the object forms would take for a call. */
static const struct mcount_call_form *call_form(const struct elf_file *f,
						const struct recordmcount_desc *d,
						int image, unsigned sec,
						const struct elf_rel *r, uint64_t *start)
{
	const struct mcount_call_form *form = NULL;

	if (image)
		form = match_form(f, d->image_forms, d->nr_image_forms, sec, r, start);
	return form ? form : match_form(f, d->forms, d->nr_forms, sec, r, start);
}

/* The relocation paired with call relocation i (riscv RELAX, mips JALR):
 * the assembler writes it next to the call, so look only nearby. */
static int find_pair(const struct elf_file *f, unsigned relsec, unsigned i,
		     const struct mcount_call_form *form, const struct elf_rel *call)
{
	unsigned n = elf_rel_count(f, relsec);
	unsigned lo = i > 3 ? i - 3 : 0, hi = i + 4 < n ? i + 4 : n;

	if (!form->pair_type)
		return -1;
	for (unsigned j = lo; j < hi; j++) {
		struct elf_rel r;

		if (j != i && !rmc_rel_get(f, relsec, j, &r) && r.type == form->pair_type &&
		    r.offset == call->offset + (uint64_t)(int64_t)form->pair_off)
			return j;
	}
	return -1;
}

static int push_site(struct rmc_sites *out, const struct rmc_site *s)
{
	if (grow_array((void **)&out->v, &out->cap, out->nr + 1, sizeof(*out->v)))
		return -1;
	out->v[out->nr++] = *s;
	return 0;
}

static int is_relax_type(const struct recordmcount_desc *d, uint32_t type)
{
	for (unsigned i = 0; i < d->nr_relax_types; i++)
		if (d->relax_types[i] == type)
			return 1;
	return 0;
}

/* Which relocations of relsec are the pairs of the sites from first on. */
static uint8_t *site_pairs(const struct elf_file *f, unsigned relsec, unsigned first,
			   const struct rmc_sites *out)
{
	uint8_t *paired = calloc(elf_rel_count(f, relsec) + 1, 1);

	for (unsigned k = first; paired && k < out->nr; k++)
		if (out->v[k].pair >= 0)
			paired[out->v[k].pair] = 1;
	return paired;
}

/* Count the sites, from first on, that a relaxable relocation precedes in
 * their section.  With --nop the sites' own relax relocations are nulled
 * and move nothing. */
static int count_after_relax(const struct elf_file *f, unsigned relsec,
			     unsigned first, int nop, struct rmc_sites *out)
{
	const struct recordmcount_desc *d = out->arch->rmc;
	uint8_t *paired = NULL;
	uint64_t min = UINT64_MAX;

	if (!d->nr_relax_types)
		return 0;
	if (nop && !(paired = site_pairs(f, relsec, first, out)))
		return -1;
	for (unsigned j = 0; j < elf_rel_count(f, relsec); j++) {
		struct elf_rel r;

		if (elf_rel_get(f, relsec, j, &r) || !is_relax_type(d, r.type) ||
		    r.offset >= min || (paired && paired[j]))
			continue;
		min = r.offset;
	}
	for (unsigned k = first; k < out->nr; k++)
		out->after_relax += min < out->v[k].off;
	free(paired);
	return 0;
}

/* The sites of one relocation section.  Relaxation is over in an image:
 * nothing is left to go stale. */
static int scan_relsec(const struct elf_file *f, unsigned relsec, const uint8_t *is_mcount,
		       int nop, int image, struct rmc_sites *out)
{
	unsigned sec = f->sections[relsec].info, first = out->nr;

	for (unsigned i = 0; i < elf_rel_count(f, relsec); i++) {
		struct rmc_site s = { .sec = sec, .relsec = relsec, .rel = i };
		struct elf_rel r;

		if (rmc_rel_get(f, relsec, i, &r) || !is_mcount[r.sym])
			continue;
		s.form = call_form(f, out->arch->rmc, image, sec, &r, &s.off);
		if (!s.form)
			continue;
		s.pair = find_pair(f, relsec, i, s.form, &r);
		if (push_site(out, &s))
			return -1;
	}
	return image ? 0 : count_after_relax(f, relsec, first, nop, out);
}

static int by_place(const void *a, const void *b)
{
	const struct rmc_site *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* One site per place: two relocations never describe one call twice in
 * the forms we know, but a crafted object could make them. */
static void sort_unique(struct rmc_sites *out)
{
	unsigned w = 0;

	if (out->nr < 2)
		return;
	sort_array(out->v, out->nr, sizeof(*out->v), by_place);
	for (unsigned r = 0; r < out->nr; r++)
		if (!w || out->v[w - 1].sec != out->v[r].sec ||
		    out->v[w - 1].off + out->v[w - 1].form->units * out->v[w - 1].form->unit
		    <= out->v[r].off)
			out->v[w++] = out->v[r];
	out->nr = w;
}

static unsigned find_symtab(const struct elf_file *f)
{
	int s = elf_find_section_type(f, SHT_SYMTAB);

	return s > 0 ? (unsigned)s : 0;
}

static int find(const struct elf_file *f, const struct arch_desc *arch, int nop,
		int image, struct rmc_sites *out, char *err, size_t errlen)
{
	uint8_t *is_mcount;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->arch = arch;
	out->symtab = find_symtab(f);
	if (!out->symtab)
		return 0;	/* no symbols, no relocations against mcount */
	is_mcount = mcount_symbols(f, out->symtab);
	for (unsigned i = 1; is_mcount && !ret && i < f->shnum; i++)
		if (rmc_is_code_relsec(f, i))
			ret = scan_relsec(f, i, is_mcount, nop, image, out);
	free(is_mcount);
	if (!is_mcount || ret) {
		snprintf(err, errlen, "out of memory");
		rmc_sites_free(out);
		return -1;
	}
	sort_unique(out);
	return 0;
}

int rmc_find(const struct elf_file *f, const struct arch_desc *arch, int nop,
	     struct rmc_sites *out, char *err, size_t errlen)
{
	return find(f, arch, nop, 0, out, err, errlen);
}

int rmc_find_image(const struct elf_file *f, const struct arch_desc *arch,
		   struct rmc_sites *out, char *err, size_t errlen)
{
	return find(f, arch, 0, 1, out, err, errlen);
}

void rmc_sites_free(struct rmc_sites *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
