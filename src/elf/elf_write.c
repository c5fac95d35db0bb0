// SPDX-License-Identifier: GPL-2.0
/*
 * The encoders that mirror the reader: stores in the file's byte order,
 * section headers and relocations in the file's class.  Each layout is
 * written once, with the field offsets of both classes side by side, so
 * ELF32 and ELF64 share every line of logic (recordmcount uses this to
 * write objects of any supported architecture).
 */
#include "elf.h"
#include "../common/sort.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>

/* Byte-order aware stores, the mirror of elf_u16() and friends. */
static void elf_put_u16(const struct elf_file *f, void *p, uint16_t v)
{
	uint8_t *b = p;

	b[f->big_endian ? 0 : 1] = v >> 8;
	b[f->big_endian ? 1 : 0] = v & 0xff;
}

void elf_put_u32(const struct elf_file *f, void *p, uint32_t v)
{
	uint8_t *b = p;

	for (int i = 0; i < 4; i++)
		b[f->big_endian ? 3 - i : i] = (v >> (8 * i)) & 0xff;
}

static void elf_put_u64(const struct elf_file *f, void *p, uint64_t v)
{
	uint8_t *b = p;

	elf_put_u32(f, f->big_endian ? b + 4 : b, (uint32_t)v);
	elf_put_u32(f, f->big_endian ? b : b + 4, (uint32_t)(v >> 32));
}

void elf_put_word(const struct elf_file *f, void *p, uint64_t v)
{
	if (f->is64)
		elf_put_u64(f, p, v);
	else
		elf_put_u32(f, p, (uint32_t)v);
}

unsigned elf_shdr_size(const struct elf_file *f)
{
	return f->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
}

unsigned elf_rel_size(const struct elf_file *f, int rela)
{
	if (f->is64)
		return rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
	return rela ? sizeof(Elf32_Rela) : sizeof(Elf32_Rel);
}

/* After sh_name and sh_type, the fields are words in the class's size,
 * except sh_link and sh_info, which are 32-bit in both. */
void elf_section_encode(const struct elf_file *f, const struct elf_section *s,
			void *p)
{
	uint8_t *b = p;
	unsigned w = elf_word_size(f);

	elf_put_u32(f, b, s->name);
	elf_put_u32(f, b + 4, s->type);
	elf_put_word(f, b + 8, s->flags);
	elf_put_word(f, b + 8 + w, s->addr);
	elf_put_word(f, b + 8 + 2 * w, s->offset);
	elf_put_word(f, b + 8 + 3 * w, s->size);
	elf_put_u32(f, b + 8 + 4 * w, s->link);
	elf_put_u32(f, b + 12 + 4 * w, s->info);
	elf_put_word(f, b + 16 + 4 * w, s->addralign);
	elf_put_word(f, b + 16 + 5 * w, s->entsize);
}

void elf_rel_encode(const struct elf_file *f, const struct elf_rel *r, int rela,
		    void *p)
{
	uint8_t *b = p;
	unsigned w = elf_word_size(f);
	uint64_t info = f->is64 ? ELF64_R_INFO((uint64_t)r->sym, r->type)
				: ELF32_R_INFO(r->sym, r->type & 0xff);

	elf_put_word(f, b, r->offset);
	elf_put_word(f, b + w, info);
	if (rela)
		elf_put_word(f, b + 2 * w, (uint64_t)r->addend);
}

void elf_header_set_sections(const struct elf_file *f, void *hdr, uint64_t shoff,
			     unsigned shnum, unsigned shstrndx)
{
	uint8_t *h = hdr;

	if (f->is64) {
		elf_put_u64(f, h + 40, shoff);
		elf_put_u16(f, h + 60, shnum);
		elf_put_u16(f, h + 62, shstrndx);
	} else {
		elf_put_u32(f, h + 32, (uint32_t)shoff);
		elf_put_u16(f, h + 48, shnum);
		elf_put_u16(f, h + 50, shstrndx);
	}
}

/* ---- overlap check ---- */

struct extent {
	uint64_t off, end;
	unsigned sec;		/* section index; 0 for the headers */
};

static int by_offset(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static void extent_name(const struct extent *e, char *buf, size_t len)
{
	if (e->sec == 0)
		snprintf(buf, len, "the ELF headers");
	else
		snprintf(buf, len, "section %u", e->sec);
}

/* The extents that occupy file bytes, headers included; returns the count. */
static unsigned collect_extents(const struct elf_file *f, struct extent *v)
{
	unsigned n = 0;

	v[n++] = (struct extent){ 0, f->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr), 0 };
	if (f->shnum)
		v[n++] = (struct extent){ f->shoff,
			f->shoff + (uint64_t)f->shnum * elf_shdr_size(f), 0 };
	for (unsigned i = 1; i < f->shnum; i++) {
		const struct elf_section *s = &f->sections[i];

		if (s->type != SHT_NOBITS && s->type != SHT_NULL && s->size)
			v[n++] = (struct extent){ s->offset, s->offset + s->size, i };
	}
	return n;
}

int elf_check_overlaps(const struct elf_file *f, char *err, size_t errlen)
{
	struct extent *v = malloc((f->shnum + 2) * sizeof(*v));
	unsigned n;
	int ret = 0;

	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	n = collect_extents(f, v);
	sort_array(v, n, sizeof(*v), by_offset);
	for (unsigned i = 1; i < n && !ret; i++) {
		char a[32], b[32];

		if (v[i].off >= v[i - 1].end)
			continue;
		extent_name(&v[i - 1], a, sizeof(a));
		extent_name(&v[i], b, sizeof(b));
		snprintf(err, errlen, "%s overlaps %s", a, b);
		ret = -1;
	}
	free(v);
	return ret;
}
