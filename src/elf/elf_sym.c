// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols, relocations and the loaded-image view of an ELF file.  Every
 * index read from the file is checked here, at the point of use, because
 * elf_open() only validated the tables themselves.
 */
#include "elf.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

static unsigned entry_size(const struct elf_file *f, uint32_t type)
{
	switch (type) {
	case SHT_SYMTAB:
	case SHT_DYNSYM:
		return f->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	case SHT_REL:
		return f->is64 ? sizeof(Elf64_Rel) : sizeof(Elf32_Rel);
	case SHT_RELA:
		return f->is64 ? sizeof(Elf64_Rela) : sizeof(Elf32_Rela);
	}
	return 0;
}

static unsigned table_count(const struct elf_file *f, unsigned sec,
			    uint32_t type_a, uint32_t type_b)
{
	const struct elf_section *s;
	unsigned esz;

	if (sec == 0 || sec >= f->shnum)
		return 0;
	s = &f->sections[sec];
	if (s->type != type_a && s->type != type_b)
		return 0;
	esz = entry_size(f, s->type);
	return esz ? s->size / esz : 0;
}

unsigned elf_sym_count(const struct elf_file *f, unsigned symtab)
{
	return table_count(f, symtab, SHT_SYMTAB, SHT_DYNSYM);
}

/* A NUL-terminated string at offset off of string table strsec, or NULL. */
static const char *string_at(const struct elf_file *f, unsigned strsec,
			     uint64_t off)
{
	const struct elf_section *s = &f->sections[strsec];
	const char *str;

	if (s->type != SHT_STRTAB || off >= s->size)
		return NULL;
	str = (const char *)f->data + s->offset + off;
	if (!memchr(str, '\0', s->size - off))
		return NULL;
	return str;
}

int elf_sym_get(const struct elf_file *f, unsigned symtab, unsigned i,
		struct elf_sym *out)
{
	const struct elf_section *s;
	const uint8_t *p;
	unsigned info;

	if (i >= elf_sym_count(f, symtab))
		return -1;
	s = &f->sections[symtab];
	p = f->data + s->offset + (uint64_t)i * entry_size(f, s->type);
	if (f->is64) {
		info = p[4];
		out->visibility = ELF64_ST_VISIBILITY(p[5]);
		out->shndx = elf_u16(f, p + 6);
		out->value = elf_u64(f, p + 8);
		out->size = elf_u64(f, p + 16);
	} else {
		out->value = elf_u32(f, p + 4);
		out->size = elf_u32(f, p + 8);
		info = p[12];
		out->visibility = ELF64_ST_VISIBILITY(p[13]);
		out->shndx = elf_u16(f, p + 14);
	}
	out->type = ELF64_ST_TYPE(info);
	out->bind = ELF64_ST_BIND(info);
	out->name = string_at(f, s->link, elf_u32(f, p));
	if (!out->name)
		out->name = "";
	return 0;
}

unsigned elf_rel_count(const struct elf_file *f, unsigned relsec)
{
	return table_count(f, relsec, SHT_REL, SHT_RELA);
}

int elf_rel_get(const struct elf_file *f, unsigned relsec, unsigned i,
		struct elf_rel *out)
{
	const struct elf_section *s;
	const uint8_t *p;
	uint64_t info;

	if (i >= elf_rel_count(f, relsec))
		return -1;
	s = &f->sections[relsec];
	p = f->data + s->offset + (uint64_t)i * entry_size(f, s->type);
	out->offset = elf_word(f, p);
	info = elf_word(f, p + elf_word_size(f));
	if (f->is64) {
		out->type = ELF64_R_TYPE(info);
		out->sym = ELF64_R_SYM(info);
	} else {
		out->type = ELF32_R_TYPE(info);
		out->sym = ELF32_R_SYM(info);
	}
	out->addend = 0;
	if (s->type == SHT_RELA)
		out->addend = (int64_t)elf_word(f, p + 2 * elf_word_size(f));
	if (!f->is64 && s->type == SHT_RELA)
		out->addend = (int32_t)out->addend;
	return 0;
}

const uint8_t *elf_vaddr_ptr(const struct elf_file *f, uint64_t vaddr,
			     size_t len)
{
	for (unsigned i = 0; i < f->phnum; i++) {
		const struct elf_segment *s = &f->segments[i];
		uint64_t off;

		if (s->type != PT_LOAD || vaddr < s->vaddr)
			continue;
		off = vaddr - s->vaddr;
		if (off > s->filesz || len > s->filesz - off)
			continue;
		if (s->offset > f->size || off + len > f->size - s->offset)
			return NULL;
		return f->data + s->offset + off;
	}
	return NULL;
}

uint64_t elf_load_base(const struct elf_file *f)
{
	uint64_t base = UINT64_MAX;

	for (unsigned i = 0; i < f->phnum; i++)
		if (f->segments[i].type == PT_LOAD &&
		    f->segments[i].vaddr < base)
			base = f->segments[i].vaddr;
	return base == UINT64_MAX ? 0 : base & ~(uint64_t)0xfff;
}

uint64_t elf_dynamic(const struct elf_file *f, int64_t tag)
{
	int sec = elf_find_section_type(f, SHT_DYNAMIC);
	const uint8_t *d = sec > 0 ? elf_section_data(f, sec) : NULL;
	unsigned w = elf_word_size(f);

	for (uint64_t off = 0; d && off + 2 * w <= f->sections[sec].size; off += 2 * w) {
		int64_t t = f->is64 ? (int64_t)elf_word(f, d + off)
				    : (int32_t)elf_word(f, d + off);

		if (t == DT_NULL)
			break;
		if (t == tag)
			return elf_word(f, d + off + w);
	}
	return 0;
}

int elf_is_executable(const struct elf_file *f)
{
	return f->type == ET_EXEC ||
	       (f->type == ET_DYN && (elf_dynamic(f, DT_FLAGS_1) & DF_1_PIE));
}

/* Walk the notes of one SHT_NOTE section looking for NT_GNU_BUILD_ID. */
static int note_build_id(const struct elf_file *f, const uint8_t *p,
			 uint64_t size, char *buf, size_t len)
{
	while (size >= 12) {
		uint32_t namesz = elf_u32(f, p), descsz = elf_u32(f, p + 4);
		uint32_t type = elf_u32(f, p + 8);
		uint64_t nlen = (namesz + 3ull) & ~3ull;
		uint64_t dlen = (descsz + 3ull) & ~3ull;

		if (12 + nlen > size || dlen > size - 12 - nlen)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    memcmp(p + 12, "GNU", 4) == 0 && 2 * descsz < len) {
			for (uint32_t i = 0; i < descsz; i++)
				snprintf(buf + 2 * i, 3, "%02x",
					 p[12 + nlen + i]);
			return 1;
		}
		p += 12 + nlen + dlen;
		size -= 12 + nlen + dlen;
	}
	return 0;
}

int elf_build_id(const struct elf_file *f, char *buf, size_t len)
{
	for (unsigned i = 1; i < f->shnum; i++) {
		const struct elf_section *s = &f->sections[i];

		if (s->type == SHT_NOTE &&
		    note_build_id(f, f->data + s->offset, s->size, buf, len))
			return 1;
	}
	return 0;
}
