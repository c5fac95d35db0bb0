// SPDX-License-Identifier: GPL-2.0
/*
 * The libraries an ELF file names (DT_NEEDED), read from the file with
 * pread(): nothing is mapped or allocated, since the runtime asks between
 * vfork() and exec, where the child shares its parent's heap and a
 * malloc() lock another thread may hold.  Either class, either byte
 * order; the dynamic section is found through the program headers, as
 * the loader finds it, and its string table through the PT_LOAD that
 * holds it.
 */
#include "elf.h"

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define MAX_LOADS 16
#define MAX_DYN 512		/* entries read at most: a real one has ~40 */

struct needed_reader {
	struct elf_file f;	/* only the class and byte order: elf_u16() ... */
	int fd;
	uint64_t dyn_off, dyn_size;
	unsigned nr_loads;
	uint64_t load_vaddr[MAX_LOADS], load_off[MAX_LOADS], load_size[MAX_LOADS];
};

static int read_at(const struct needed_reader *r, uint64_t off, void *buf, size_t len)
{
	return pread(r->fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* The file offset of a link-time address, through the PT_LOAD holding it. */
static int vaddr_offset(const struct needed_reader *r, uint64_t vaddr, uint64_t *off)
{
	for (unsigned i = 0; i < r->nr_loads; i++)
		if (vaddr >= r->load_vaddr[i] && vaddr - r->load_vaddr[i] < r->load_size[i]) {
			*off = r->load_off[i] + (vaddr - r->load_vaddr[i]);
			return 0;
		}
	return -1;
}

static void note_segment(struct needed_reader *r, const uint8_t *ph)
{
	const struct elf_file *f = &r->f;
	int w = f->is64;
	uint32_t type = elf_u32(f, ph);
	uint64_t off = w ? elf_u64(f, ph + 8) : elf_u32(f, ph + 4);
	uint64_t vaddr = w ? elf_u64(f, ph + 16) : elf_u32(f, ph + 8);
	uint64_t filesz = w ? elf_u64(f, ph + 32) : elf_u32(f, ph + 16);

	if (type == PT_DYNAMIC) {
		r->dyn_off = off;
		r->dyn_size = filesz;
	} else if (type == PT_LOAD && r->nr_loads < MAX_LOADS) {
		r->load_vaddr[r->nr_loads] = vaddr;
		r->load_off[r->nr_loads] = off;
		r->load_size[r->nr_loads++] = filesz;
	}
}

/* The header and program headers: the dynamic section and the loads. */
static int read_segments(struct needed_reader *r)
{
	uint8_t eh[64], ph[56];
	uint64_t phoff;
	unsigned phentsize, phnum;

	if (read_at(r, 0, eh, sizeof(eh)) || memcmp(eh, ELFMAG, SELFMAG) ||
	    (eh[EI_CLASS] != ELFCLASS32 && eh[EI_CLASS] != ELFCLASS64))
		return -1;
	r->f.is64 = eh[EI_CLASS] == ELFCLASS64;
	r->f.big_endian = eh[EI_DATA] == ELFDATA2MSB;
	phoff = r->f.is64 ? elf_u64(&r->f, eh + 32) : elf_u32(&r->f, eh + 28);
	phentsize = elf_u16(&r->f, eh + (r->f.is64 ? 54 : 42));
	phnum = elf_u16(&r->f, eh + (r->f.is64 ? 56 : 44));
	if (phentsize < (r->f.is64 ? 56u : 32u))
		return -1;
	for (unsigned i = 0; i < phnum && i < 256; i++) {
		if (read_at(r, phoff + (uint64_t)i * phentsize, ph, r->f.is64 ? 56 : 32))
			return -1;
		note_segment(r, ph);
	}
	return r->dyn_size ? 0 : -1;
}

/* One dynamic entry: its tag and value; -1 past the section's end. */
static int dyn_entry(const struct needed_reader *r, unsigned i, int64_t *tag, uint64_t *val)
{
	unsigned w = r->f.is64 ? 8 : 4;
	uint8_t d[16];

	if ((uint64_t)(i + 1) * 2 * w > r->dyn_size || read_at(r, r->dyn_off + i * 2 * w, d, 2 * w))
		return -1;
	*tag = (int64_t)elf_word(&r->f, d);
	*val = elf_word(&r->f, d + w);
	return 0;
}

/* The string table's file offset and size. */
static int string_table(const struct needed_reader *r, uint64_t *off, uint64_t *size)
{
	uint64_t strtab = 0, val;
	int64_t tag;

	*size = 0;
	for (unsigned i = 0; i < MAX_DYN && dyn_entry(r, i, &tag, &val) == 0 && tag != DT_NULL; i++) {
		if (tag == DT_STRTAB)
			strtab = val;
		else if (tag == DT_STRSZ)
			*size = val;
	}
	return strtab && *size ? vaddr_offset(r, strtab, off) : -1;
}

/* The first name the file needs that match() takes, into out. */
static int find_needed(const struct needed_reader *r, int (*match)(const char *),
		       char *out, size_t len)
{
	uint64_t stroff, strsize, val;
	int64_t tag;

	if (string_table(r, &stroff, &strsize))
		return -1;
	for (unsigned i = 0; i < MAX_DYN && dyn_entry(r, i, &tag, &val) == 0 && tag != DT_NULL; i++) {
		ssize_t n;

		if (tag != DT_NEEDED || val >= strsize)
			continue;
		n = pread(r->fd, out, len - 1, (off_t)(stroff + val));
		if (n <= 0)
			continue;
		out[n] = '\0';
		if (strlen(out) < (size_t)n && match(out))
			return 1;
	}
	return 0;
}

int elf_needed_find(const char *path, int (*match)(const char *name), char *out, size_t len)
{
	struct needed_reader r = { .fd = open(path, O_RDONLY | O_CLOEXEC) };
	int ret;

	if (r.fd < 0 || len < 2) {
		if (r.fd >= 0)
			close(r.fd);
		return -1;
	}
	ret = read_segments(&r) == 0 && find_needed(&r, match, out, len) == 1;
	close(r.fd);
	if (!ret)
		out[0] = '\0';
	return ret;
}
