/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small, defensive ELF reader: ELF32 and ELF64, either byte order.
 *
 * Everything the file says is checked before it is used: an offset or a
 * count that points outside the file makes elf_open() fail with a message
 * in f->err, so the accessors below never read out of bounds.  The reader
 * is shared by the runtime (reading the modules of the traced process),
 * the CLI (list, report) and recordmcount.
 */
#ifndef FNTRACE_ELF_H
#define FNTRACE_ELF_H

#include <stddef.h>
#include <stdint.h>

/* Section header, widened to 64-bit fields whatever the class. */
struct elf_section {
	uint32_t name;
	uint32_t type;
	uint64_t flags;
	uint64_t addr;
	uint64_t offset;
	uint64_t size;
	uint32_t link;
	uint32_t info;
	uint64_t addralign;
	uint64_t entsize;
};

/* Program header, widened likewise. */
struct elf_segment {
	uint32_t type;
	uint32_t flags;
	uint64_t offset;
	uint64_t vaddr;
	uint64_t filesz;
	uint64_t memsz;
};

struct elf_sym {
	const char *name;
	uint64_t value;
	uint64_t size;
	unsigned type;		/* STT_* */
	unsigned bind;		/* STB_* */
	unsigned visibility;	/* STV_* */
	unsigned shndx;
};

struct elf_rel {
	uint64_t offset;
	uint32_t type;
	uint32_t sym;
	int64_t addend;		/* explicit (RELA) or 0 for REL */
};

struct elf_file {
	const uint8_t *data;
	size_t size;
	int is64;
	int big_endian;
	unsigned type;		/* ET_* */
	unsigned machine;	/* EM_* */
	unsigned flags;		/* e_flags */
	unsigned shnum;
	unsigned phnum;
	unsigned shstrndx;
	uint64_t shoff;		/* e_shoff: non-zero with shnum 0 means extended numbering */
	struct elf_section *sections;
	struct elf_segment *segments;
	int mapped;		/* data came from elf_open_path() */
	char err[160];
};

int elf_open_mem(struct elf_file *f, const void *data, size_t size);
int elf_open_path(struct elf_file *f, const char *path);
void elf_close(struct elf_file *f);

/* Byte-order aware loads from inside f->data. */
uint16_t elf_u16(const struct elf_file *f, const void *p);
uint32_t elf_u32(const struct elf_file *f, const void *p);
uint64_t elf_u64(const struct elf_file *f, const void *p);
/* A target word: 4 bytes for ELF32, 8 for ELF64. */
uint64_t elf_word(const struct elf_file *f, const void *p);
unsigned elf_word_size(const struct elf_file *f);

const char *elf_section_name(const struct elf_file *f, unsigned idx);
int elf_find_section(const struct elf_file *f, const char *name);
int elf_find_section_type(const struct elf_file *f, uint32_t type);
/* Contents of a section, or NULL for SHT_NOBITS / an empty section. */
const uint8_t *elf_section_data(const struct elf_file *f, unsigned idx);

/* Symbols of a SHT_SYMTAB or SHT_DYNSYM section. */
unsigned elf_sym_count(const struct elf_file *f, unsigned symtab);
int elf_sym_get(const struct elf_file *f, unsigned symtab, unsigned i,
		struct elf_sym *out);

/* Relocations of a SHT_REL or SHT_RELA section. */
unsigned elf_rel_count(const struct elf_file *f, unsigned relsec);
int elf_rel_get(const struct elf_file *f, unsigned relsec, unsigned i,
		struct elf_rel *out);

/* The file bytes that a loaded image has at vaddr (through PT_LOAD). */
const uint8_t *elf_vaddr_ptr(const struct elf_file *f, uint64_t vaddr,
			     size_t len);
/* Lowest PT_LOAD vaddr, rounded down to a page: what dlpi_addr is relative to. */
uint64_t elf_load_base(const struct elf_file *f);
/* The value of a dynamic-section tag; 0 if the tag is absent. */
uint64_t elf_dynamic(const struct elf_file *f, int64_t tag);
/* An executable (ET_EXEC, or a PIE), as opposed to a shared library. */
int elf_is_executable(const struct elf_file *f);
/* GNU build-id as lowercase hex into buf (at least 41 bytes); 0 if none. */
int elf_build_id(const struct elf_file *f, char *buf, size_t len);

/* The first library the file names (DT_NEEDED) that match() takes, into
 * out (needed.c): 1, or 0 if none (or not a dynamic ELF file), -1 if the
 * file cannot be opened.  Read with pread(): no memory is allocated. */
int elf_needed_find(const char *path, int (*match)(const char *name), char *out, size_t len);

/* ---- writing (elf_write.c): the encoders of the readers above ---- */

/* Byte-order aware stores, the mirror of elf_u32() and elf_word(). */
void elf_put_u32(const struct elf_file *f, void *p, uint32_t v);
void elf_put_word(const struct elf_file *f, void *p, uint64_t v);

/* Sizes of one section header and one relocation in f's class. */
unsigned elf_shdr_size(const struct elf_file *f);
unsigned elf_rel_size(const struct elf_file *f, int rela);
/* Encode a section header / a relocation (REL drops the addend). */
void elf_section_encode(const struct elf_file *f, const struct elf_section *s,
			void *p);
void elf_rel_encode(const struct elf_file *f, const struct elf_rel *r, int rela,
		    void *p);
/* Write e_shoff, e_shnum and e_shstrndx into the ELF header at hdr. */
void elf_header_set_sections(const struct elf_file *f, void *hdr, uint64_t shoff,
			     unsigned shnum, unsigned shstrndx);
/* -1 (and a message in err) if two sections, or a section and the ELF
 * header or the section header table, share bytes of the file. */
int elf_check_overlaps(const struct elf_file *f, char *err, size_t errlen);

#endif
