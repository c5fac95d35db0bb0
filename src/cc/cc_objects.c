// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace cc: what the inputs of a link hold, and whether the image it
 * made has call sites.  A link of objects built for tracing must give an
 * image with a table of them: one without would run untraced, and
 * fntrace record would only find out when it is asked to trace it.
 */
#include "cc.h"
#include "../elf/elf.h"
#include "../sites/sites.h"

#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define AR_MAGIC_LEN	8	/* "!<arch>\n" */
#define AR_HEADER	60	/* a member's header */

/* The tables of call sites an image or object may have. */
static const char *const tables[] = { "__mcount_loc", "__patchable_function_entries" };

static int has_table(const struct elf_file *f)
{
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (elf_find_section(f, tables[i]) > 0)
			return 1;
	return 0;
}

/* gcc -flto's objects: GIMPLE in .gnu.lto_* sections (beside code, in a
 * fat object, which an LTO link does not use). */
static int has_gimple(const struct elf_file *f)
{
	for (unsigned i = 1; i < f->shnum; i++)
		if (!strncmp(elf_section_name(f, i), ".gnu.lto_", 9))
			return 1;
	return 0;
}

/* LLVM bitcode, bare or in its wrapper: clang -flto's objects. */
static int is_bitcode(const uint8_t *data, size_t size)
{
	static const uint8_t bare[4] = { 'B', 'C', 0xc0, 0xde };
	static const uint8_t wrapped[4] = { 0xde, 0xc0, 0x17, 0x0b };

	return size >= 4 && (!memcmp(data, bare, 4) || !memcmp(data, wrapped, 4));
}

/* The kinds of one object, as bits: none if it is no object. */
static unsigned object_kinds(const uint8_t *data, size_t size)
{
	struct elf_file f;
	unsigned kinds = 0;

	if (is_bitcode(data, size))
		return CC_OBJ_LTO;
	if (elf_open_mem(&f, data, size))
		return 0;
	if (f.type == ET_REL && has_gimple(&f))
		kinds |= CC_OBJ_LTO;
	if (f.type == ET_REL && has_table(&f))
		kinds |= CC_OBJ_TABLE;
	elf_close(&f);
	return kinds;
}

/*
 * The kinds of an archive's members (ar's format: "!<arch>\n", then per
 * member a 60-byte header whose bytes 48..57 are its size in decimal, and
 * its data, padded to an even size).  A thin archive holds no members.
 */
static unsigned archive_kinds(const uint8_t *data, size_t size)
{
	unsigned kinds = 0;
	size_t at = AR_MAGIC_LEN;

	while (at + AR_HEADER <= size) {
		char field[11];
		size_t len;

		memcpy(field, data + at + 48, 10);
		field[10] = '\0';
		len = strtoul(field, NULL, 10);
		at += AR_HEADER;
		if (len > size - at)
			break;
		kinds |= object_kinds(data + at, len);
		at += len + (len & 1);
	}
	return kinds;
}

/* The kinds of one input, as bits. */
static unsigned input_kinds(const char *path)
{
	struct stat st;
	unsigned kinds = 0;
	void *map = MAP_FAILED;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		close(fd);
	if (map == MAP_FAILED)
		return 0;
	if ((size_t)st.st_size >= AR_MAGIC_LEN && !memcmp(map, "!<arch>\n", AR_MAGIC_LEN))
		kinds = archive_kinds(map, st.st_size);
	else
		kinds = object_kinds(map, st.st_size);
	munmap(map, st.st_size);
	return kinds;
}

unsigned cc_input_kinds(const struct cc_args *a, char **objs, int nobjs)
{
	unsigned kinds = 0;

	for (int i = 0; i < a->argc; i++)
		if (a->role[i] == CC_INPUT)
			kinds |= input_kinds(a->argv[i]);
	for (int i = 0; i < nobjs; i++)
		kinds |= input_kinds(objs[i]);
	return kinds;
}

int cc_image_has_table(const char *path)
{
	struct elf_file f;
	int ret;

	if (elf_open_path(&f, path))
		return 1;	/* not an image we can read: nothing to say */
	ret = has_table(&f);
	elf_close(&f);
	return ret;
}

unsigned cc_image_unnamed_sites(const char *path)
{
	struct elf_file f;
	unsigned n;

	if (elf_open_path(&f, path))
		return 0;
	n = sites_unnamed(&f);
	elf_close(&f);
	return n;
}
