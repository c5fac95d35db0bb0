// SPDX-License-Identifier: GPL-2.0
/*
 * ELF headers, section and program header tables: read once, widened to
 * 64-bit fields and checked against the file size, so that later accessors
 * can trust every offset they are given.
 */
#include "elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(struct elf_file *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->err, sizeof(f->err), fmt, ap);
	va_end(ap);
	return -1;
}

uint16_t elf_u16(const struct elf_file *f, const void *p)
{
	const uint8_t *b = p;

	return f->big_endian ? (uint16_t)(b[0] << 8 | b[1])
			     : (uint16_t)(b[1] << 8 | b[0]);
}

uint32_t elf_u32(const struct elf_file *f, const void *p)
{
	const uint8_t *b = p;

	if (f->big_endian)
		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
		       (uint32_t)b[2] << 8 | b[3];
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[1] << 8 | b[0];
}

uint64_t elf_u64(const struct elf_file *f, const void *p)
{
	const uint8_t *b = p;
	uint64_t hi = elf_u32(f, f->big_endian ? b : b + 4);
	uint64_t lo = elf_u32(f, f->big_endian ? b + 4 : b);

	return hi << 32 | lo;
}

uint64_t elf_word(const struct elf_file *f, const void *p)
{
	return f->is64 ? elf_u64(f, p) : elf_u32(f, p);
}

unsigned elf_word_size(const struct elf_file *f)
{
	return f->is64 ? 8 : 4;
}

/* Does [off, off + len) lie inside the file?  Written to survive overflow. */
static int in_file(const struct elf_file *f, uint64_t off, uint64_t len)
{
	return off <= f->size && len <= f->size - off;
}

static void read_section(const struct elf_file *f, const uint8_t *p,
			 struct elf_section *s)
{
	s->name = elf_u32(f, p);
	s->type = elf_u32(f, p + 4);
	if (f->is64) {
		s->flags = elf_u64(f, p + 8);
		s->addr = elf_u64(f, p + 16);
		s->offset = elf_u64(f, p + 24);
		s->size = elf_u64(f, p + 32);
		s->link = elf_u32(f, p + 40);
		s->info = elf_u32(f, p + 44);
		s->addralign = elf_u64(f, p + 48);
		s->entsize = elf_u64(f, p + 56);
	} else {
		s->flags = elf_u32(f, p + 8);
		s->addr = elf_u32(f, p + 12);
		s->offset = elf_u32(f, p + 16);
		s->size = elf_u32(f, p + 20);
		s->link = elf_u32(f, p + 24);
		s->info = elf_u32(f, p + 28);
		s->addralign = elf_u32(f, p + 32);
		s->entsize = elf_u32(f, p + 36);
	}
}

static void read_segment(const struct elf_file *f, const uint8_t *p,
			 struct elf_segment *s)
{
	s->type = elf_u32(f, p);
	if (f->is64) {
		s->flags = elf_u32(f, p + 4);
		s->offset = elf_u64(f, p + 8);
		s->vaddr = elf_u64(f, p + 16);
		s->filesz = elf_u64(f, p + 32);
		s->memsz = elf_u64(f, p + 40);
	} else {
		s->offset = elf_u32(f, p + 4);
		s->vaddr = elf_u32(f, p + 8);
		s->filesz = elf_u32(f, p + 16);
		s->memsz = elf_u32(f, p + 20);
		s->flags = elf_u32(f, p + 24);
	}
}

static int read_ident(struct elf_file *f)
{
	const uint8_t *id = f->data;

	if (f->size < EI_NIDENT || memcmp(id, ELFMAG, SELFMAG) != 0)
		return fail(f, "not an ELF file");
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return fail(f, "unknown ELF class %u", id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return fail(f, "unknown ELF byte order %u", id[EI_DATA]);
	f->is64 = id[EI_CLASS] == ELFCLASS64;
	f->big_endian = id[EI_DATA] == ELFDATA2MSB;
	if (f->size < (f->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return fail(f, "truncated ELF header");
	return 0;
}

/* Fields of the ELF header that locate the two tables. */
struct table_pos {
	uint64_t shoff, phoff;
	unsigned shentsize, phentsize;
};

static void read_header(struct elf_file *f, struct table_pos *t)
{
	const uint8_t *h = f->data;

	f->type = elf_u16(f, h + 16);
	f->machine = elf_u16(f, h + 18);
	if (f->is64) {
		t->phoff = elf_u64(f, h + 32);
		t->shoff = elf_u64(f, h + 40);
		f->flags = elf_u32(f, h + 48);
		t->phentsize = elf_u16(f, h + 54);
		f->phnum = elf_u16(f, h + 56);
		t->shentsize = elf_u16(f, h + 58);
		f->shnum = elf_u16(f, h + 60);
		f->shstrndx = elf_u16(f, h + 62);
	} else {
		t->phoff = elf_u32(f, h + 28);
		t->shoff = elf_u32(f, h + 32);
		f->flags = elf_u32(f, h + 36);
		t->phentsize = elf_u16(f, h + 42);
		f->phnum = elf_u16(f, h + 44);
		t->shentsize = elf_u16(f, h + 46);
		f->shnum = elf_u16(f, h + 48);
		f->shstrndx = elf_u16(f, h + 50);
	}
}

static int read_sections(struct elf_file *f, const struct table_pos *t)
{
	unsigned want = f->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);

	if (f->shnum == 0)
		return 0;
	if (t->shentsize != want)
		return fail(f, "bad section header size %u", t->shentsize);
	if (!in_file(f, t->shoff, (uint64_t)f->shnum * want))
		return fail(f, "section header table outside the file");
	f->sections = calloc(f->shnum, sizeof(*f->sections));
	if (!f->sections)
		return fail(f, "out of memory");
	for (unsigned i = 0; i < f->shnum; i++) {
		struct elf_section *s = &f->sections[i];

		read_section(f, f->data + t->shoff + (uint64_t)i * want, s);
		if (s->type != SHT_NOBITS && s->type != SHT_NULL &&
		    !in_file(f, s->offset, s->size))
			return fail(f, "section %u lies outside the file", i);
		if (s->link >= f->shnum && s->type != SHT_NULL)
			return fail(f, "section %u links to bad section %u",
				    i, s->link);
	}
	return 0;
}

static int check_string_table(struct elf_file *f)
{
	const struct elf_section *s;

	if (f->shnum == 0)
		return 0;
	if (f->shstrndx >= f->shnum)
		return fail(f, "bad section name table index %u", f->shstrndx);
	s = &f->sections[f->shstrndx];
	if (s->type != SHT_STRTAB || s->size == 0 ||
	    f->data[s->offset + s->size - 1] != '\0')
		return fail(f, "malformed section name table");
	for (unsigned i = 0; i < f->shnum; i++)
		if (f->sections[i].name >= s->size)
			return fail(f, "section %u has a bad name offset", i);
	return 0;
}

static int read_segments(struct elf_file *f, const struct table_pos *t)
{
	unsigned want = f->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);

	if (f->phnum == 0)
		return 0;
	if (t->phentsize != want)
		return fail(f, "bad program header size %u", t->phentsize);
	if (!in_file(f, t->phoff, (uint64_t)f->phnum * want))
		return fail(f, "program header table outside the file");
	f->segments = calloc(f->phnum, sizeof(*f->segments));
	if (!f->segments)
		return fail(f, "out of memory");
	for (unsigned i = 0; i < f->phnum; i++)
		read_segment(f, f->data + t->phoff + (uint64_t)i * want,
			     &f->segments[i]);
	return 0;
}

int elf_open_mem(struct elf_file *f, const void *data, size_t size)
{
	struct table_pos t;

	memset(f, 0, sizeof(*f));
	f->data = data;
	f->size = size;
	if (read_ident(f))
		return -1;
	read_header(f, &t);
	f->shoff = t.shoff;
	if (read_sections(f, &t) || check_string_table(f) ||
	    read_segments(f, &t)) {
		free(f->sections);
		free(f->segments);
		f->sections = NULL;
		f->segments = NULL;
		return -1;
	}
	return 0;
}

int elf_open_path(struct elf_file *f, const char *path)
{
	struct stat st;
	void *map;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(f, 0, sizeof(*f));
	if (fd < 0)
		return fail(f, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return fail(f, "%s: not a regular, non-empty file", path);
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return fail(f, "%s: %s", path, strerror(errno));
	if (elf_open_mem(f, map, st.st_size)) {
		char why[sizeof(f->err)];

		memcpy(why, f->err, sizeof(why));
		munmap(map, st.st_size);
		snprintf(f->err, sizeof(f->err), "%s: %s", path, why);
		return -1;
	}
	f->mapped = 1;
	return 0;
}

void elf_close(struct elf_file *f)
{
	if (f->mapped)
		munmap((void *)f->data, f->size);
	free(f->sections);
	free(f->segments);
	memset(f, 0, sizeof(*f));
}

const char *elf_section_name(const struct elf_file *f, unsigned idx)
{
	const struct elf_section *strtab = &f->sections[f->shstrndx];

	if (idx >= f->shnum)
		return "";
	return (const char *)f->data + strtab->offset + f->sections[idx].name;
}

int elf_find_section(const struct elf_file *f, const char *name)
{
	for (unsigned i = 1; i < f->shnum; i++)
		if (strcmp(elf_section_name(f, i), name) == 0)
			return i;
	return -1;
}

int elf_find_section_type(const struct elf_file *f, uint32_t type)
{
	for (unsigned i = 1; i < f->shnum; i++)
		if (f->sections[i].type == type)
			return i;
	return -1;
}

const uint8_t *elf_section_data(const struct elf_file *f, unsigned idx)
{
	const struct elf_section *s;

	if (idx == 0 || idx >= f->shnum)
		return NULL;
	s = &f->sections[idx];
	if (s->type == SHT_NOBITS || s->size == 0)
		return NULL;
	return f->data + s->offset;
}
