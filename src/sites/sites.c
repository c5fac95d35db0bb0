// SPDX-License-Identifier: GPL-2.0
/*
 * Call-site discovery for one image: its side file, written from the
 * final link by recordmcount --image (right even where per-object tables
 * are not, after riscv relaxation); then in the kernel's order of
 * preference a table the toolchain wrote (__mcount_loc, read through
 * the __fntrace_funcs beside it when fntrace cc made the whole image,
 * __patchable_function_entries: the sites of both, if both are there),
 * and only for a plain -pg build without one, a search of each
 * function's head for its call to mcount.  Whatever
 * names a site, the arch's check_site() must agree with the image's bytes.
 */
#include "sites.h"
#include "../common/array.h"
#include "../common/bulk.h"
#include "../common/sort.h"
#include "funcsyms.h"
#include "functable.h"
#include "sitefile.h"

#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct u64_list {
	uint64_t *v;
	unsigned nr;
	size_t cap;
};

static int u64_push(struct u64_list *l, uint64_t x)
{
	if (grow_array((void **)&l->v, &l->cap, l->nr + 1, sizeof(*l->v)))
		return -1;
	l->v[l->nr++] = x;
	return 0;
}

int is_mcount_name(const char *name)
{
	static const char *const names[] = { "mcount", "_mcount", "__fentry__" };

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t len = strlen(names[i]);

		/* The first letter turns most names away: this is asked of
		 * every symbol.  A version ("@GLIBC_2.2.5") may follow. */
		if (name[0] == names[i][0] && !strncmp(name, names[i], len) &&
		    (name[len] == '\0' || name[len] == '@'))
			return 1;
	}
	return 0;
}

/* ---- dynamic relocations ---- */

/* Calls fn for every relocation of every allocated REL/RELA section. */
static void for_each_dynrel(const struct elf_file *f,
			    void (*fn)(const struct elf_file *, const struct elf_rel *,
				       unsigned symtab, void *),
			    void *arg)
{
	for (unsigned i = 1; i < f->shnum; i++) {
		const struct elf_section *s = &f->sections[i];

		if ((s->type != SHT_RELA && s->type != SHT_REL) ||
		    !(s->flags & SHF_ALLOC))
			continue;
		for (unsigned r = 0; r < elf_rel_count(f, i); r++) {
			struct elf_rel rel;

			if (!elf_rel_get(f, i, r, &rel))
				fn(f, &rel, s->link, arg);
		}
	}
}

static const char *rel_sym_name(const struct elf_file *f, unsigned symtab,
				const struct elf_rel *rel)
{
	struct elf_sym s;

	if (rel->sym == 0 || elf_sym_get(f, symtab, rel->sym, &s))
		return NULL;
	return s.name;
}

struct slot_scan {
	const struct arch_desc *arch;
	struct u64_list slots;
	int failed;
};

static void note_mcount_slot(const struct elf_file *f, const struct elf_rel *rel,
			     unsigned symtab, void *arg)
{
	struct slot_scan *sc = arg;
	const char *name;

	if (rel->type != sc->arch->rel_glob_dat && rel->type != sc->arch->rel_jump_slot)
		return;
	name = rel_sym_name(f, symtab, rel);
	if (name && is_mcount_name(name) && u64_push(&sc->slots, rel->offset))
		sc->failed = 1;
}

static int push_slot(void *slots, uint64_t slot)
{
	return u64_push(slots, slot);
}

/*
 * Definitions of mcount that code in this image can call directly.  A
 * shared library's default-visibility definition can be interposed, so
 * its own callers would go through a GOT slot, found above; only an
 * executable, or a hidden definition, is called directly (e8, or the
 * "67 e8" ld makes of a relaxed GOT call).  This keeps libc, which
 * defines mcount but never calls it, from being searched.
 */
static int mcount_defs(const struct elf_file *f, struct u64_list *out)
{
	int executable = elf_is_executable(f);

	for (unsigned i = 1; i < f->shnum; i++) {
		if (f->sections[i].type != SHT_SYMTAB && f->sections[i].type != SHT_DYNSYM)
			continue;
		for (unsigned k = 0; k < elf_sym_count(f, i); k++) {
			struct elf_sym s;

			if (elf_sym_get(f, i, k, &s) || s.shndx == SHN_UNDEF ||
			    !is_mcount_name(s.name) ||
			    (!executable && s.visibility == STV_DEFAULT))
				continue;
			if (u64_push(out, s.value))
				return -1;
		}
	}
	return 0;
}

/* ---- tables written by the toolchain ---- */

struct table_fix {
	const struct arch_desc *arch;
	uint64_t lo, hi;	/* the table's address range */
	uint64_t *values;	/* one per entry, fixed up in place */
};

/* Apply the dynamic relocation ld left for a table entry of a PIE or
 * shared object: RELATIVE entries carry their value in the addend. */
static void fix_entry(const struct elf_file *f, const struct elf_rel *rel,
		      unsigned symtab, void *arg)
{
	struct table_fix *t = arg;
	unsigned w = elf_word_size(f);
	uint64_t i;

	(void)symtab;
	if (rel->offset < t->lo || rel->offset >= t->hi || (rel->offset - t->lo) % w)
		return;
	i = (rel->offset - t->lo) / w;
	if (rel->type == t->arch->rel_relative && rel->addend)
		t->values[i] = rel->addend;
}

const uintptr_t *sites_table_mapped(const struct elf_file *f, int sec,
				    const struct sites_mapping *map, size_t *n)
{
	const struct elf_section *s = sec > 0 ? &f->sections[sec] : NULL;
	uintptr_t lo;

	*n = 0;
	if (!s || !(s->flags & SHF_ALLOC) || elf_word_size(f) != sizeof(uintptr_t))
		return NULL;
	lo = (uintptr_t)(map->bias + s->addr);
	if (!s->size || lo % sizeof(uintptr_t) || lo < map->lo || lo > map->hi ||
	    map->hi - lo < s->size)
		return NULL;
	*n = s->size / sizeof(uintptr_t);
	return (const uintptr_t *)lo;
}

/*
 * 1 if the table the loader relocated in memory holds, at every entry,
 * the value the file has in place (plus the load bias; a dropped entry's
 * 0 stays 0 or becomes the bias): then the relocations would change
 * nothing, and need not be read (100 000 of them for as many sites).
 * An object whose relocation is not done yet (another thread's dlopen()
 * under way) fails this, and its relocations are read.
 */
static int relocated_as_file(const struct elf_file *f, int sec, const struct sites_mapping *map,
			     const uint64_t *values, unsigned n)
{
	size_t nr;
	const uintptr_t *mem = sites_table_mapped(f, sec, map, &nr);

	if (!mem || nr < n)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		uintptr_t want = values[i] ? (uintptr_t)(values[i] + map->bias) : 0;

		if (mem[i] != want && (values[i] || mem[i] != (uintptr_t)map->bias))
			return 0;
	}
	return 1;
}

/* The addresses a table section lists, relocated as the loader would:
 * a bulk array (bulk.h) of *n, or NULL if out of memory. */
static uint64_t *read_table(const struct elf_file *f, const struct arch_desc *arch,
			    int sec, const struct sites_mapping *map, unsigned *n)
{
	const struct elf_section *s = &f->sections[sec];
	const uint8_t *data = elf_section_data(f, sec);
	unsigned w = elf_word_size(f);
	struct table_fix fix = { arch, s->addr, s->addr + s->size, NULL };
	uint64_t nr = data ? s->size / w : 0, *v;

	/* Sized once: a table of 100 000 entries grew by doubling, each
	 * copy and each new page paid for. */
	if (nr > UINT_MAX || !(v = bulk_alloc((nr ? nr : 1) * sizeof(*v))))
		return NULL;
	for (uint64_t i = 0; i < nr; i++)
		v[i] = elf_word(f, data + i * w);
	*n = (unsigned)nr;
	fix.values = v;
	if (f->type == ET_DYN && nr && !(map && relocated_as_file(f, sec, map, v, *n)))
		for_each_dynrel(f, fix_entry, &fix);
	return v;
}

/* ---- putting it together ---- */

/* Room for need sites in out->v, a bulk array (bulk.h): as many as
 * asked at first, then twice as many each time. */
static int sites_room(struct image_sites *out, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap * 2 : need < 16 ? 16 : need;
	struct site *v;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	v = bulk_realloc(out->v, n * sizeof(*v));
	if (!v)
		return -1;
	out->v = v;
	*cap = n;
	return 0;
}

static int site_push(struct image_sites *out, const struct site *s, size_t *cap)
{
	if (sites_room(out, cap, out->nr + 1))
		return -1;
	out->v[out->nr++] = *s;
	return 0;
}

static int sites_from_table(const struct elf_file *f, const struct funcsyms *fs,
			    const uint64_t *addrs, unsigned n, struct image_sites *out)
{
	size_t cap = 0;
	unsigned hint = 0;

	/* At most a site per entry: sized once, as the table was. */
	if (sites_room(out, &cap, n))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		const struct funcsym *fn = funcsyms_at(fs, addrs[i], &hint);
		struct site s;

		if (addrs[i] == 0)
			continue;	/* an entry whose function the linker dropped */
		if (!fn || !out->arch->check_site(f, addrs[i], fn->addr, &s)) {
			out->skipped++;
			continue;
		}
		s.name = fn->name;
		if (site_push(out, &s, &cap))
			return -1;
	}
	return 0;
}

static int sites_from_scan(const struct elf_file *f, const struct funcsyms *fs,
			   const struct mcount_targets *t, struct image_sites *out)
{
	size_t cap = 0;

	for (unsigned i = 0; i < fs->nr; i++) {
		struct site s;

		if (!out->arch->find_site(f, t, fs->v[i].addr, fs->v[i].size, &s))
			continue;
		s.name = fs->v[i].name;
		if (site_push(out, &s, &cap))
			return -1;
	}
	return 0;
}

static int scan_heads(const struct elf_file *f, struct image_sites *out)
{
	struct slot_scan sc = { .arch = out->arch };
	struct u64_list defs = { 0 };
	struct funcsyms fs = { 0 };
	int ret = -1;

	for_each_dynrel(f, note_mcount_slot, &sc);
	if (out->arch->got_slots && out->arch->got_slots(f, push_slot, &sc.slots))
		sc.failed = 1;
	if (sc.failed || mcount_defs(f, &defs))
		goto out;
	ret = 0;
	if (sc.slots.nr || defs.nr) {
		struct mcount_targets t = { sc.slots.v, sc.slots.nr, defs.v, defs.nr };

		out->source = SOURCE_SCAN;
		ret = funcsyms_collect(f, &fs);
		if (!ret)
			ret = sites_from_scan(f, &fs, &t, out);
	}
out:
	funcsyms_free(&fs);
	free(sc.slots.v);
	free(defs.v);
	return ret;
}

/* ---- side files ---- */

/* Each claim of the side file, checked against the image like a table
 * entry; the function and its name come from the file, so that an image
 * stripped of its symbols is still traced with names. */
static int sites_from_sidefile(const struct elf_file *f, const struct sitefile *sf,
			       struct image_sites *out)
{
	size_t cap = 0;

	for (unsigned i = 0; i < sf->nr; i++) {
		const struct sitefile_entry *e = &sf->v[i];
		struct site s;

		if (!out->arch->check_site(f, e->addr, e->func, &s) || s.addr != e->addr ||
		    s.len != e->len || s.kind != e->kind) {
			out->skipped++;
			continue;
		}
		s.name = e->name;
		if (site_push(out, &s, &cap))
			return -1;
	}
	return 0;
}

/*
 * 1 if the image's side file gave its sites; 0 if it has none, or one
 * that is not used (then out->warning says why).  An image without a
 * build-id costs nothing here; one with a build-id costs one open().
 */
static int from_sidefile(const struct elf_file *f, struct image_sites *out)
{
	char id[SITEFILE_MAX_ID], err[160], *path;
	struct sitefile sf;
	int found;

	if (!elf_build_id(f, id, sizeof(id)) || !(path = sitefile_path(id)))
		return 0;
	found = sitefile_read(path, out->arch->name, id, &sf, err, sizeof(err));
	if (found < 0)
		snprintf(out->warning, sizeof(out->warning),
			 "side file %s: %s; not used", path, err);
	free(path);
	if (found <= 0)
		return 0;
	out->source = SOURCE_SIDEFILE;
	out->text = sf.text;	/* the names live on with the sites */
	sf.text = NULL;
	found = sites_from_sidefile(f, &sf, out) ? -1 : 1;
	sitefile_free(&sf);
	return found;
}

static int by_site_addr(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void sort_unique(struct image_sites *out)
{
	unsigned w = 0;

	sort_array(out->v, out->nr, sizeof(*out->v), by_site_addr);
	for (unsigned r = 0; r < out->nr; r++)
		if (w == 0 || out->v[w - 1].addr != out->v[r].addr)
			out->v[w++] = out->v[r];
	out->nr = w;
}

static int from_table(const struct elf_file *f, int sec, const struct sites_mapping *map,
		      struct image_sites *out)
{
	struct funcsyms fs = { 0 };
	unsigned n = 0;
	uint64_t *addrs = read_table(f, out->arch, sec, map, &n);
	int ret = addrs ? funcsyms_collect(f, &fs) : -1;

	if (!ret)
		ret = sites_from_table(f, &fs, addrs, n, out);
	funcsyms_free(&fs);
	bulk_free(addrs);
	return ret;
}

static int discover(const struct elf_file *f, const struct sites_mapping *map,
		    struct image_sites *out)
{
	static const struct { const char *name; enum sites_source src; } tables[] = {
		{ "__mcount_loc", SOURCE_MCOUNT_LOC },
		{ "__patchable_function_entries", SOURCE_PATCHABLE },
	};
	int side = from_sidefile(f, out);

	if (side)
		return side < 0 ? -1 : 0;
	/* Both tables, in a clang build whose LTO objects got patchable
	 * entries beside objects compiled with -pg: the sites of both. */
	for (unsigned i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		int sec = elf_find_section(f, tables[i].name), ft;

		if (sec <= 0)
			continue;
		/* fntrace cc's own list of the same sites, read in place */
		ft = tables[i].src == SOURCE_MCOUNT_LOC ? functable_sites(f, sec, out) : 0;
		if (ft < 0)
			return -1;
		if (!ft && from_table(f, sec, map, out))
			return -1;
		if (out->source == SOURCE_NONE)
			out->source = ft ? SOURCE_FUNCTABLE : tables[i].src;
	}
	return out->source == SOURCE_NONE ? scan_heads(f, out) : 0;
}

static int start(const struct elf_file *f, struct image_sites *out,
		 char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->arch = arch_lookup(f->machine);
	if (!out->arch) {
		snprintf(err, errlen, "unsupported architecture (ELF machine %u)",
			 f->machine);
		return -1;
	}
	if (f->type != ET_EXEC && f->type != ET_DYN) {
		snprintf(err, errlen, "not an executable or shared object");
		return -1;
	}
	return 0;
}

static int finish(int failed, struct image_sites *out, char *err, size_t errlen)
{
	if (failed) {
		snprintf(err, errlen, "out of memory");
		sites_free(out);
		return -1;
	}
	sort_unique(out);
	return 0;
}

int sites_discover(const struct elf_file *f, struct image_sites *out,
		   char *err, size_t errlen)
{
	return sites_discover_mapped(f, NULL, out, err, errlen);
}

int sites_discover_mapped(const struct elf_file *f, const struct sites_mapping *map,
			  struct image_sites *out, char *err, size_t errlen)
{
	if (start(f, out, err, errlen))
		return -1;
	return finish(discover(f, map, out), out, err, errlen);
}

int sites_from_addrs(const struct elf_file *f, const uint64_t *addrs, unsigned n,
		     struct image_sites *out, char *err, size_t errlen)
{
	struct funcsyms fs = { 0 };
	int failed;

	if (start(f, out, err, errlen))
		return -1;
	failed = funcsyms_collect(f, &fs) || sites_from_table(f, &fs, addrs, n, out);
	funcsyms_free(&fs);
	return finish(failed, out, err, errlen);
}

int sites_scan(const struct elf_file *f, struct image_sites *out,
	       char *err, size_t errlen)
{
	if (start(f, out, err, errlen))
		return -1;
	return finish(scan_heads(f, out), out, err, errlen);
}

int sites_check_entry(const struct elf_file *f, uint64_t addr, struct site *out)
{
	const struct arch_desc *arch = arch_lookup(f->machine);

	return arch && arch->check_site(f, addr, addr, out);
}

/* An entry as the file holds it: the link-time address where the linker
 * wrote it in place (the executable's, REL's addends, and what ld writes
 * beside RELA's), else 0. */
static uint64_t table_entry(const struct elf_file *f, int sec, uint64_t i)
{
	const uint8_t *data = elf_section_data(f, sec);
	unsigned w = elf_word_size(f);

	return data && (i + 1) * w <= f->sections[sec].size ? elf_word(f, data + i * w) : 0;
}

int sites_quick_any(const struct elf_file *f)
{
	static const char *const tables[] = { "__mcount_loc", "__patchable_function_entries" };
	struct site s;

	for (unsigned t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		int sec = elf_find_section(f, tables[t]);

		for (uint64_t i = 0; sec > 0 && i < 16; i++) {
			uint64_t addr = table_entry(f, sec, i);

			if (addr && sites_check_entry(f, addr, &s))
				return 1;
		}
	}
	return 0;
}

unsigned sites_unnamed(const struct elf_file *f)
{
	struct image_sites s;
	unsigned n = 0;
	char err[256];

	if (elf_find_section(f, ".symtab") > 0 || elf_find_section(f, FUNCTABLE_NAME) > 0 ||
	    sites_discover(f, &s, err, sizeof(err)))
		return 0;
	if (s.nr == 0)
		n = s.skipped;
	sites_free(&s);
	return n;
}

void sites_free(struct image_sites *s)
{
	bulk_free(s->v);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

const char *sites_source_name(enum sites_source source)
{
	switch (source) {
	case SOURCE_SIDEFILE:
		return "side file";
	case SOURCE_FUNCTABLE:
		return FUNCTABLE_NAME;
	case SOURCE_MCOUNT_LOC:
		return "__mcount_loc";
	case SOURCE_PATCHABLE:
		return "__patchable_function_entries";
	case SOURCE_SCAN:
		return "mcount calls";
	default:
		return "none";
	}
}
