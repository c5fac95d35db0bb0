// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the table: the new object, built whole in memory.
 *
 * The original bytes are kept where they are (but for the nopped sites and
 * relocations, and the ELF header's section fields); appended after them:
 *
 *   for each text section with sites, aligned to a word:
 *     __mcount_loc         one word per site        "WAL", sh_link = text
 *     .rela__mcount_loc    one absolute relocation  sh_link = .symtab,
 *     (or .rel__mcount_loc)  per word                sh_info = __mcount_loc
 *     __fntrace_funcs      the sites' functions     "AL", sh_link = text
 *                          (src/sites/functable.h)
 *     .rela__fntrace_funcs one PC-relative          sh_link = .symtab,
 *     (or .rel...)           relocation per site     sh_info = __fntrace_funcs
 *   copies of the section groups that hold such a text section, with the
 *     new sections added, so COMDAT copies are dropped together
 *   a copy of the section-name string table with the new names
 *   the section header table: the old headers (the name table and the
 *     groups pointing at their copies) and the new ones
 *
 * Entries are "section symbol + offset": they follow the code wherever the
 * linker puts the section, and need no symbol of the function itself.
 * Writable, so a PIE or shared object gets RELATIVE relocations rather
 * than DT_TEXTREL; link-order, so --gc-sections drops an entry with its
 * function, as it does gcc's __patchable_function_entries.
 * __fntrace_funcs needs no load-time relocation at all, but only an arch
 * with a 32-bit PC-relative one and tables based on local symbols get it
 * (plan_functable).
 */
#include "rmc.h"
#include "../sites/functable.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One __mcount_loc to add. */
struct table {
	unsigned text;		/* its text section */
	unsigned first, nr;	/* its sites: s->v[first .. first + nr) */
	unsigned sym;		/* the symbol its entries are relative to */
	uint64_t sym_value;
	uint64_t loc_off, rel_off;	/* where the contents go */
	uint64_t ft_off, ftrel_off;	/* and those of its __fntrace_funcs */
	uint32_t ft_size;
	int rank;		/* its base symbol's (base_rank), the best yet */
	int grouped;		/* the text is in a section group: so are they */
};

struct plan {
	struct table *t;
	unsigned nt;
	int *table_of;		/* per section: its table, or -1 */
	unsigned *group_add;	/* per section: members a group gains */
	uint64_t *group_off;	/* per section: where a grown group goes */
	uint64_t str_off, str_size, shoff, size;
	unsigned shnum, symtab;
	unsigned per;		/* sections a table adds: 2, or 4 with its piece */
	struct rmc_funcs *fs;	/* the functions, for the pieces */
	const char *rel_name;	/* ".rela__mcount_loc" or ".rel__mcount_loc" */
	const char *ft_rel_name;	/* the same for __fntrace_funcs */
};

/* The new names share one string each: "__mcount_loc" is the tail of
 * ".rela__mcount_loc". */
#define LOC_NAME "__mcount_loc"


/* ---- the base symbol of each text section ---- */

/* Lower is better; -1: never.  A weak symbol may be overridden by another
 * object's definition, and an ifunc resolves to another function. */
static int base_rank(const struct elf_sym *s)
{
	if (s->type == STT_GNU_IFUNC || s->type == STT_TLS || s->type == STT_FILE ||
	    s->type == STT_COMMON)
		return -1;
	if (s->bind == STB_LOCAL)
		return s->type == STT_SECTION ? 0 : s->type == STT_FUNC ? 1 : 2;
	if (s->bind == STB_GLOBAL)
		return s->visibility != STV_DEFAULT ? 3 : 4;
	return -1;
}

/* One pass over the symbols: the best base of every table. */
static void choose_bases(const struct elf_file *f, unsigned symtab, struct plan *p)
{
	for (unsigned i = 0; i < p->nt; i++)
		p->t[i].rank = 99;
	for (unsigned i = 1; i < elf_sym_count(f, symtab); i++) {
		struct elf_sym s;
		int rank, t;

		if (elf_sym_get(f, symtab, i, &s) || s.shndx >= f->shnum)
			continue;
		t = p->table_of[s.shndx];
		rank = base_rank(&s);
		if (t < 0 || rank < 0 || rank >= p->t[t].rank)
			continue;
		p->t[t].rank = rank;
		p->t[t].sym = i;
		p->t[t].sym_value = s.value;
	}
}

/* ---- planning ---- */

static int plan_tables(const struct elf_file *f, const struct rmc_sites *s,
		       struct plan *p)
{
	p->t = calloc(s->nr ? s->nr : 1, sizeof(*p->t));
	p->table_of = malloc(f->shnum * sizeof(*p->table_of));
	p->group_add = calloc(f->shnum, sizeof(*p->group_add));
	p->group_off = calloc(f->shnum, sizeof(*p->group_off));
	if (!p->t || !p->table_of || !p->group_add || !p->group_off)
		return -1;
	for (unsigned i = 0; i < f->shnum; i++)
		p->table_of[i] = -1;
	for (unsigned i = 0; i < s->nr; i++) {
		if (p->table_of[s->v[i].sec] < 0) {
			p->table_of[s->v[i].sec] = p->nt;
			p->t[p->nt++] = (struct table){ .text = s->v[i].sec, .first = i };
		}
		p->t[p->table_of[s->v[i].sec]].nr++;
	}
	return 0;
}

/* Groups gain the two new sections of each member that gets a table. */
static void plan_groups(const struct elf_file *f, struct plan *p)
{
	for (unsigned g = 1; g < f->shnum; g++) {
		const struct elf_section *s = &f->sections[g];

		if (s->type != SHT_GROUP)
			continue;
		for (uint64_t off = 4; off + 4 <= s->size; off += 4) {
			uint32_t m = elf_u32(f, f->data + s->offset + off);

			if (m < f->shnum && p->table_of[m] >= 0) {
				p->group_add[g] += p->per;
				p->t[p->table_of[m]].grouped = 1;
			}
		}
	}
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

static void plan_layout(const struct elf_file *f, int rela, struct plan *p)
{
	unsigned w = elf_word_size(f);
	const struct elf_section *str = &f->sections[f->shstrndx];
	uint64_t at = f->size;

	for (unsigned i = 0; i < p->nt; i++) {
		p->t[i].loc_off = at = align_up(at, w);
		at += (uint64_t)p->t[i].nr * w;
		p->t[i].rel_off = at = align_up(at, w);
		at += (uint64_t)p->t[i].nr * elf_rel_size(f, rela);
		if (p->per == 2)
			continue;
		p->t[i].ft_off = at = align_up(at, 4);
		at += p->t[i].ft_size;
		p->t[i].ftrel_off = at = align_up(at, w);
		at += (uint64_t)p->t[i].nr * elf_rel_size(f, rela);
	}
	for (unsigned g = 1; g < f->shnum; g++) {
		if (!p->group_add[g])
			continue;
		p->group_off[g] = at = align_up(at, 4);
		at += f->sections[g].size + 4ull * p->group_add[g];
	}
	p->str_off = at;
	p->rel_name = rela ? ".rela" LOC_NAME : ".rel" LOC_NAME;
	p->ft_rel_name = rela ? ".rela" FUNCTABLE_NAME : ".rel" FUNCTABLE_NAME;
	p->str_size = str->size + strlen(p->rel_name) + 1;
	if (p->per == 4)
		p->str_size += strlen(p->ft_rel_name) + 1;
	p->shnum = f->shnum + p->per * p->nt;
	p->shoff = align_up(at + p->str_size, w);
	p->size = p->shoff + (uint64_t)p->shnum * elf_shdr_size(f);
}

/* A table's piece: its entries, and the name of each site's function. */
static uint32_t piece_size(const struct rmc_sites *s, const struct plan *p,
			   const struct table *t)
{
	uint64_t size = FUNCTABLE_HEAD + (uint64_t)t->nr * FUNCTABLE_ENTRY;

	for (unsigned i = 0; i < t->nr; i++) {
		const struct rmc_site *site = &s->v[t->first + i];
		uint64_t start = UINT64_MAX;
		const char *name = rmc_func_at(p->fs, site->sec, site->off, &start);

		if (start != UINT64_MAX)
			size += strlen(name) + 1;
	}
	return size > UINT32_MAX - 3 ? 0 : (uint32_t)align_up(size, 4);
}

/*
 * A __fntrace_funcs piece for every table, when the arch has a 32-bit
 * PC-relative relocation and every base symbol is local: the link then
 * resolves each entry within the image.  (Against a symbol a shared
 * object exports, ld refuses such a relocation.)  Otherwise the object
 * has __mcount_loc alone, and an image it is linked into is read from
 * that, as any other.
 */
static int plan_functable(const struct elf_file *f, const struct rmc_sites *s,
			  struct plan *p)
{
	p->per = 2;
	if (!s->arch->rmc->rel_pc32)
		return 0;
	for (unsigned i = 0; i < p->nt; i++)
		if (p->t[i].rank > 2)
			return 0;
	p->fs = rmc_funcs_new(f, s->symtab);
	if (!p->fs)
		return -1;
	for (unsigned i = 0; i < p->nt; i++)
		if (!(p->t[i].ft_size = piece_size(s, p, &p->t[i])))
			return 0;
	p->per = 4;
	return 0;
}

static int plan(const struct elf_file *f, const struct rmc_sites *s, struct plan *p,
		char *err, size_t errlen)
{
	p->symtab = s->symtab;
	if (plan_tables(f, s, p)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	choose_bases(f, s->symtab, p);
	for (unsigned i = 0; i < p->nt; i++) {
		if (p->t[i].sym)
			continue;
		snprintf(err, errlen, "section %s has no section symbol nor a local or "
			 "global symbol to base its entries on (weak ones may be replaced)",
			 elf_section_name(f, p->t[i].text));
		return -1;
	}
	if (plan_functable(f, s, p)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	plan_groups(f, p);
	plan_layout(f, s->arch->rmc->rela, p);
	if (p->shnum >= SHN_LORESERVE || (!f->is64 && p->size > UINT32_MAX) ||
	    p->size > SIZE_MAX) {
		snprintf(err, errlen, "the result would have too many sections or bytes");
		return -1;
	}
	return 0;
}

/* ---- writing ---- */

/* The piece before its names: "FNT1", its entries, its size. */
static void write_piece_head(const struct elf_file *f, const struct table *t, uint8_t *piece)
{
	elf_put_u32(f, piece, FUNCTABLE_MAGIC);
	elf_put_u32(f, piece + 4, t->nr);
	elf_put_u32(f, piece + 8, t->ft_size);
}

/* Each entry's site is a PC-relative relocation against the table's
 * base, as its __mcount_loc word is an absolute one. */
static void write_piece(const struct elf_file *f, const struct rmc_sites *s,
			const struct plan *p, const struct table *t, uint8_t *out)
{
	const struct recordmcount_desc *d = s->arch->rmc;
	uint8_t *piece = out + t->ft_off;
	uint32_t name_at = FUNCTABLE_HEAD + t->nr * FUNCTABLE_ENTRY;

	write_piece_head(f, t, piece);
	for (unsigned i = 0; i < t->nr; i++) {
		const struct rmc_site *site = &s->v[t->first + i];
		uint32_t at = FUNCTABLE_HEAD + i * FUNCTABLE_ENTRY;
		uint64_t addend = site->off - t->sym_value, start = UINT64_MAX;
		struct elf_rel r = { .offset = at, .type = d->rel_pc32,
				     .sym = t->sym, .addend = (int64_t)addend };
		const char *name = rmc_func_at(p->fs, site->sec, site->off, &start);
		size_t len = strlen(name) + 1;

		elf_put_u32(f, piece + at, d->rela ? 0 : (uint32_t)addend);
		elf_rel_encode(f, &r, d->rela, out + t->ftrel_off +
			       (uint64_t)i * elf_rel_size(f, d->rela));
		if (start == UINT64_MAX) {
			elf_put_u32(f, piece + at + 8, FUNCTABLE_NO_FUNC);
			continue;
		}
		elf_put_u32(f, piece + at + 4, name_at);
		elf_put_u32(f, piece + at + 8, (uint32_t)(site->off - start));
		memcpy(piece + name_at, name, len);
		name_at += len;
	}
}

static void write_table(const struct elf_file *f, const struct rmc_sites *s,
			const struct table *t, uint8_t *out)
{
	const struct recordmcount_desc *d = s->arch->rmc;
	unsigned w = elf_word_size(f), rsz = elf_rel_size(f, d->rela);

	for (unsigned i = 0; i < t->nr; i++) {
		uint64_t addend = s->v[t->first + i].off - t->sym_value;
		struct elf_rel r = { .offset = (uint64_t)i * w, .type = d->rel_word,
				     .sym = t->sym, .addend = (int64_t)addend };

		/* REL: the addend is what the word holds; RELA: the word is 0. */
		elf_put_word(f, out + t->loc_off + (uint64_t)i * w, d->rela ? 0 : addend);
		elf_rel_encode(f, &r, d->rela, out + t->rel_off + (uint64_t)i * rsz);
	}
}

static void null_rel(const struct elf_file *f, const struct recordmcount_desc *d,
		     unsigned relsec, unsigned idx, uint8_t *out)
{
	struct elf_rel r;

	if (elf_rel_get(f, relsec, idx, &r))
		return;
	/* No symbol either: ld rejects an R_*_NONE against an undefined one
	 * ("unresolvable R_X86_64_NONE relocation") when it links a PIE. */
	r.type = d->rel_none;
	r.sym = 0;
	r.addend = 0;
	elf_rel_encode(f, &r, d->rela, out + f->sections[relsec].offset +
		       (uint64_t)idx * elf_rel_size(f, d->rela));
}

/* --nop: the site becomes the arch's nop, its relocations R_*_NONE. */
static void nop_site(const struct elf_file *f, const struct recordmcount_desc *d,
		     const struct rmc_site *s, uint8_t *out)
{
	uint8_t *p = out + f->sections[s->sec].offset + s->off;

	for (unsigned u = 0; u < s->form->units; u++) {
		if (s->form->unit == 1)
			p[u] = (uint8_t)s->form->nop[u];
		else
			elf_put_u32(f, p + 4 * u, s->form->nop[u]);
	}
	null_rel(f, d, s->relsec, s->rel, out);
	if (s->pair >= 0)
		null_rel(f, d, s->relsec, (unsigned)s->pair, out);
}

static void write_groups(const struct elf_file *f, const struct plan *p, uint8_t *out)
{
	for (unsigned g = 1; g < f->shnum; g++) {
		const struct elf_section *s = &f->sections[g];
		uint8_t *q;

		if (!p->group_add[g])
			continue;
		q = out + p->group_off[g] + s->size;
		memcpy(out + p->group_off[g], f->data + s->offset, s->size);
		for (uint64_t off = 4; off + 4 <= s->size; off += 4) {
			uint32_t m = elf_u32(f, f->data + s->offset + off);
			int t = m < f->shnum ? p->table_of[m] : -1;

			if (t < 0)
				continue;
			for (unsigned k = 0; k < p->per; k++, q += 4)
				elf_put_u32(f, q, f->shnum + p->per * t + k);
		}
	}
}

/* gcc's __return_loc (-mrecord-return) is read-only: in a PIE its
 * relocations would have the loader write into read-only pages
 * (DT_TEXTREL).  Writable, as our __mcount_loc is, it goes with the data
 * the loader relocates anyway. */
static void writable_return_table(const struct elf_file *f, uint8_t *sh)
{
	int sec = elf_find_section(f, "__return_loc");
	struct elf_section s;

	if (sec <= 0 || (f->sections[sec].flags & (SHF_ALLOC | SHF_WRITE)) != SHF_ALLOC)
		return;
	s = f->sections[sec];
	s.flags |= SHF_WRITE;
	elf_section_encode(f, &s, sh + (uint64_t)sec * elf_shdr_size(f));
}

/* The headers of table i's sections: __mcount_loc and its relocations,
 * then, with per 4, its piece and theirs. */
static void write_table_headers(const struct elf_file *f, const struct plan *p, int rela,
				unsigned i, uint8_t *sh)
{
	const struct table *t = &p->t[i];
	unsigned w = elf_word_size(f), rsz = elf_rel_size(f, rela), idx = f->shnum + p->per * i;
	uint64_t group = t->grouped ? SHF_GROUP : 0;
	uint32_t rel_at = f->sections[f->shstrndx].size;
	uint32_t ftrel_at = rel_at + strlen(p->rel_name) + 1;
	struct elf_section v[4] = {
		{ rel_at + strlen(p->rel_name) - strlen(LOC_NAME), SHT_PROGBITS,
		  SHF_ALLOC | SHF_WRITE | SHF_LINK_ORDER | group, 0, t->loc_off,
		  (uint64_t)t->nr * w, t->text, 0, w, 0 },
		{ rel_at, rela ? SHT_RELA : SHT_REL, SHF_INFO_LINK | group, 0, t->rel_off,
		  (uint64_t)t->nr * rsz, p->symtab, idx, w, rsz },
		{ ftrel_at + strlen(p->ft_rel_name) - strlen(FUNCTABLE_NAME), SHT_PROGBITS,
		  SHF_ALLOC | SHF_LINK_ORDER | group, 0, t->ft_off, t->ft_size, t->text, 0, 4, 0 },
		{ ftrel_at, rela ? SHT_RELA : SHT_REL, SHF_INFO_LINK | group, 0, t->ftrel_off,
		  (uint64_t)t->nr * rsz, p->symtab, idx + 2, w, rsz },
	};

	for (unsigned k = 0; k < p->per; k++)
		elf_section_encode(f, &v[k], sh + (uint64_t)(idx + k) * elf_shdr_size(f));
}

/* Section headers: the old table verbatim, then what moved, then the new. */
static void write_headers(const struct elf_file *f, const struct plan *p, int rela,
			  uint8_t *out)
{
	unsigned ssz = elf_shdr_size(f);
	uint8_t *sh = out + p->shoff;
	struct elf_section s = f->sections[f->shstrndx];

	memcpy(sh, f->data + f->shoff, (uint64_t)f->shnum * ssz);
	writable_return_table(f, sh);
	s.offset = p->str_off;
	s.size = p->str_size;
	elf_section_encode(f, &s, sh + (uint64_t)f->shstrndx * ssz);
	for (unsigned g = 1; g < f->shnum; g++) {
		if (!p->group_add[g])
			continue;
		s = f->sections[g];
		s.offset = p->group_off[g];
		s.size += 4ull * p->group_add[g];
		elf_section_encode(f, &s, sh + (uint64_t)g * ssz);
	}
	for (unsigned i = 0; i < p->nt; i++)
		write_table_headers(f, p, rela, i, sh);
}

static void write_all(const struct elf_file *f, const struct rmc_sites *s, int nop,
		      const struct plan *p, uint8_t *out)
{
	const struct recordmcount_desc *d = s->arch->rmc;
	const struct elf_section *str = &f->sections[f->shstrndx];

	memcpy(out, f->data, f->size);
	for (unsigned i = 0; i < p->nt; i++) {
		write_table(f, s, &p->t[i], out);
		if (p->per == 4)
			write_piece(f, s, p, &p->t[i], out);
	}
	for (unsigned i = 0; nop && i < s->nr; i++)
		nop_site(f, d, &s->v[i], out);
	if (nop)
		rmc_xray_sleds(f, s->arch, out);
	write_groups(f, p, out);
	memcpy(out + p->str_off, f->data + str->offset, str->size);
	memcpy(out + p->str_off + str->size, p->rel_name, strlen(p->rel_name) + 1);
	if (p->per == 4)
		memcpy(out + p->str_off + str->size + strlen(p->rel_name) + 1, p->ft_rel_name,
		       strlen(p->ft_rel_name) + 1);
	write_headers(f, p, d->rela, out);
	elf_header_set_sections(f, out, p->shoff, p->shnum, f->shstrndx);
}

static void plan_free(struct plan *p)
{
	free(p->t);
	free(p->table_of);
	free(p->group_add);
	free(p->group_off);
	rmc_funcs_free(p->fs);
}

int rmc_build(const struct elf_file *f, const struct rmc_sites *s, int nop,
	      struct rmc_output *out, char *err, size_t errlen)
{
	struct plan p = { 0 };
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (plan(f, s, &p, err, errlen))
		goto done;
	out->data = calloc(1, p.size);
	if (!out->data) {
		snprintf(err, errlen, "out of memory (%llu bytes)", (unsigned long long)p.size);
		goto done;
	}
	write_all(f, s, nop, &p, out->data);
	out->size = p.size;
	out->tables = p.nt;
	ret = 0;
done:
	plan_free(&p);
	return ret;
}

void rmc_output_free(struct rmc_output *out)
{
	free(out->data);
	memset(out, 0, sizeof(*out));
}
