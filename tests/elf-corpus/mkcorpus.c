// SPDX-License-Identifier: GPL-2.0
/*
 * The malformed-ELF corpus for recordmcount: mkcorpus GOOD64.o GOOD32.o DIR
 * writes DIR/NAME.o, one file per way an object can be broken (and a few
 * DIR/ok-NAME.o that are odd but valid), each made
 * from a real object (GOOD64: x86_64 with -ffunction-sections, GOOD32: an
 * i386 one) with one field changed.  Each must give one clear error, no
 * crash, and leave the file as it was (tests/cases/cc/rmc_corpus.sh).
 *
 * Written against <elf.h> with its own field accessors, independently of
 * src/elf/, so that a bug in the reader is not mirrored here.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct obj {
	uint8_t *d;
	size_t size;
	int is64;
};

static const char *outdir;

/* Little-endian fields (both inputs are x86). */
static uint64_t get(const struct obj *o, size_t off, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | o->d[off + i];
	return v;
}

static void put(struct obj *o, size_t off, int n, uint64_t v)
{
	for (int i = 0; i < n; i++, v >>= 8)
		o->d[off + i] = v & 0xff;
}

/* Header fields, by class. */
static size_t e_shoff(const struct obj *o) { return o->is64 ? 40 : 32; }
static size_t e_shnum(const struct obj *o) { return o->is64 ? 60 : 48; }
static size_t e_shstrndx(const struct obj *o) { return o->is64 ? 62 : 50; }
static int word(const struct obj *o) { return o->is64 ? 8 : 4; }

/* Offset of field f of section header i: 0 name, 1 type, 2 flags, 3 addr,
 * 4 offset, 5 size, 6 link, 7 info. */
static size_t sh(const struct obj *o, unsigned i, int f)
{
	static const size_t off64[] = { 0, 4, 8, 16, 24, 32, 40, 44 };
	static const size_t off32[] = { 0, 4, 8, 12, 16, 20, 24, 28 };

	return get(o, e_shoff(o), word(o)) + i * (o->is64 ? 64 : 40) +
	       (o->is64 ? off64 : off32)[f];
}

static int shwidth(const struct obj *o, int f)
{
	return f < 2 || f > 5 ? 4 : word(o);
}

static uint64_t shget(const struct obj *o, unsigned i, int f)
{
	return get(o, sh(o, i, f), shwidth(o, f));
}

static void shput(struct obj *o, unsigned i, int f, uint64_t v)
{
	put(o, sh(o, i, f), shwidth(o, f), v);
}

static unsigned find(const struct obj *o, const char *name)
{
	unsigned n = get(o, e_shnum(o), 2), str = get(o, e_shstrndx(o), 2);

	for (unsigned i = 1; i < n; i++)
		if (!strcmp((char *)o->d + shget(o, str, 4) + shget(o, i, 0), name))
			return i;
	fprintf(stderr, "mkcorpus: no section %s\n", name);
	exit(1);
}

static struct obj load(const char *path, int is64)
{
	struct obj o = { .is64 = is64 };
	FILE *f = fopen(path, "rb");

	if (!f || fseek(f, 0, SEEK_END) || (long)(o.size = ftell(f)) <= 0)
		exit((perror(path), 1));
	o.d = malloc(o.size);
	rewind(f);
	if (!o.d || fread(o.d, 1, o.size, f) != o.size)
		exit((perror(path), 1));
	fclose(f);
	return o;
}

static struct obj copy(const struct obj *o)
{
	struct obj c = *o;

	c.d = malloc(o->size);
	memcpy(c.d, o->d, o->size);
	return c;
}

static void save(struct obj *o, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.o", outdir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(o->d, 1, o->size, f) != o->size || fclose(f))
		exit((perror(path), 1));
	free(o->d);
}

/* Symbol i's field: 0 name, 1 info, 2 shndx. */
static size_t sym(const struct obj *o, unsigned i, int f)
{
	unsigned symtab = find(o, ".symtab");
	size_t base = shget(o, symtab, 4) + i * (o->is64 ? 24 : 16);

	if (f == 0)
		return base;
	if (f == 1)
		return base + (o->is64 ? 4 : 12);
	return base + (o->is64 ? 6 : 14);
}

/* The STT_SECTION symbol of section sec. */
static unsigned section_symbol(const struct obj *o, unsigned sec)
{
	unsigned symtab = find(o, ".symtab");
	unsigned n = shget(o, symtab, 5) / (o->is64 ? 24 : 16);

	for (unsigned i = 1; i < n; i++)
		if ((o->d[sym(o, i, 1)] & 0xf) == STT_SECTION && get(o, sym(o, i, 2), 2) == sec)
			return i;
	fprintf(stderr, "mkcorpus: no section symbol for %u\n", sec);
	exit(1);
}

static void headers(const struct obj *g)
{
	struct obj o;
	size_t shoff = get(g, e_shoff(g), 8);

	o = copy(g); o.size = 10; save(&o, "truncated-ident");
	o = copy(g); o.size = 40; save(&o, "truncated-header");
	o = copy(g); o.size = shoff + 70; save(&o, "truncated-section-table");
	o = copy(g); put(&o, e_shoff(&o), 8, g->size + 4096); save(&o, "shoff-past-end");
	o = copy(g); put(&o, e_shnum(&o), 2, 0xfeff); save(&o, "huge-section-count");
	o = copy(g); put(&o, e_shnum(&o) - 2, 2, 12); save(&o, "bad-section-entry-size");
	o = copy(g); put(&o, e_shstrndx(&o), 2, 0xfe00); save(&o, "bad-name-table-index");
	o = copy(g); put(&o, e_shnum(&o), 2, 0); save(&o, "extended-numbering");
	o = copy(g); put(&o, 16, 2, ET_EXEC); save(&o, "not-relocatable");
	o = copy(g); put(&o, 18, 2, 0x1234); save(&o, "unknown-machine");
	o = copy(g); o.d[EI_CLASS] = 7; save(&o, "bad-class");
	o = copy(g); o.d[1] = 'X'; save(&o, "bad-magic");
}

static void sections(const struct obj *g)
{
	unsigned text = find(g, ".text.lib_sum"), rela = find(g, ".rela.text.lib_sum");
	unsigned str = get(g, e_shstrndx(g), 2), symtab = find(g, ".symtab");
	struct obj o;

	o = copy(g); shput(&o, text, 4, g->size - 2); save(&o, "section-past-end");
	o = copy(g); shput(&o, text, 5, 0xffffffff00ull); save(&o, "section-huge-size");
	o = copy(g); shput(&o, text, 0, 0xffffff); save(&o, "bad-section-name");
	o = copy(g); shput(&o, str, 1, SHT_PROGBITS); save(&o, "name-table-not-strtab");
	o = copy(g); shput(&o, rela, 4, shget(g, text, 4)); save(&o, "overlapping-sections");
	o = copy(g); shput(&o, text, 4, 0); save(&o, "section-over-header");
	o = copy(g); shput(&o, rela, 7, 999); save(&o, "rela-bad-target");
	o = copy(g); shput(&o, rela, 6, 999); save(&o, "rela-bad-link");
	o = copy(g); shput(&o, rela, 6, text); save(&o, "rela-links-to-text");
	o = copy(g); shput(&o, rela, 1, SHT_REL); save(&o, "rela-as-rel");
	o = copy(g); shput(&o, rela, 5, shget(g, rela, 5) - 5); save(&o, "rela-partial-entry");
	o = copy(g); shput(&o, symtab, 6, 0); save(&o, "symtab-without-strings");
	o = copy(g); shput(&o, symtab, 5, 0x7fffffffull * 24); save(&o, "symtab-huge-count");
	o = copy(g);
	o.d[shget(&o, find(&o, ".strtab"), 4) + shget(&o, find(&o, ".strtab"), 5) - 1] = 'x';
	save(&o, "strtab-unterminated");
}

static void symbols_relocs(const struct obj *g)
{
	unsigned rela = find(g, ".rela.text.lib_sum");
	unsigned hook = find(g, ".text.lib_hook");
	size_t r0 = shget(g, rela, 4);
	unsigned last = shget(g, find(g, ".symtab"), 5) / 24 - 1;
	struct obj o;

	o = copy(g); put(&o, sym(&o, last, 0), 4, 0xfffffff); save(&o, "bad-symbol-name");
	o = copy(g); put(&o, sym(&o, last, 2), 2, 0x2000); save(&o, "symbol-bad-section");
	o = copy(g); put(&o, sym(&o, last, 2), 2, SHN_XINDEX); save(&o, "symbol-xindex");
	o = copy(g); put(&o, r0 + 12, 4, 0xffffff); save(&o, "reloc-bad-symbol");
	o = copy(g); put(&o, r0, 8, 0x7fffffff); save(&o, "reloc-offset-past-section");
	o = copy(g); put(&o, r0, 8, shget(g, find(g, ".text.lib_sum"), 5)); save(&o, "reloc-offset-at-end");
	/* lib_hook is weak: without its section symbol, nothing may be a base. */
	o = copy(g); put(&o, sym(&o, section_symbol(g, hook), 2), 2, SHN_ABS);
	save(&o, "weak-only-section");
	/* Not errors ("ok-"): without section symbols the bases are the static
	 * lib_twice (local) and the global lib_sum. */
	o = copy(g);
	put(&o, sym(&o, section_symbol(g, find(g, ".text.lib_twice")), 2), 2, SHN_ABS);
	put(&o, sym(&o, section_symbol(g, find(g, ".text.lib_sum")), 2), 2, SHN_ABS);
	save(&o, "ok-fallback-bases");
}

static void group(const struct obj *g)
{
	unsigned n = get(g, e_shnum(g), 2);
	struct obj o;

	for (unsigned i = 1; i < n; i++) {
		if (shget(g, i, 1) != SHT_GROUP)
			continue;
		o = copy(g);
		put(&o, shget(g, i, 4) + 4, 4, 0xffff);
		save(&o, "elf32-group-bad-member");
		return;
	}
}

static void class32(const struct obj *g)
{
	struct obj o;

	o = copy(g); o.size = 30; save(&o, "elf32-truncated-header");
	o = copy(g); put(&o, 18, 2, EM_X86_64); save(&o, "elf32-x86_64");
	o = copy(g); put(&o, e_shoff(&o), 4, 0xfffffff0); save(&o, "elf32-shoff-past-end");
	o = copy(g); shput(&o, find(g, ".rel.text"), 1, SHT_RELA); save(&o, "elf32-rel-as-rela");
}

int main(int argc, char **argv)
{
	struct obj g64, g32;

	if (argc != 4) {
		fprintf(stderr, "usage: mkcorpus GOOD64.o GOOD32.o DIR\n");
		return 2;
	}
	outdir = argv[3];
	g64 = load(argv[1], 1);
	g32 = load(argv[2], 0);
	headers(&g64);
	sections(&g64);
	symbols_relocs(&g64);
	class32(&g32);
	group(&g32);
	return 0;
}
