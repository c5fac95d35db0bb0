// SPDX-License-Identifier: GPL-2.0
/*
 * Reading __fntrace_funcs (functable.h): its pieces one after the other,
 * each checked whole before its entries are believed.
 */
#include "functable.h"
#include "../common/bulk.h"

#include <limits.h>
#include <string.h>

struct piece {
	const uint8_t *p;	/* its first byte */
	uint64_t addr;		/* where that byte is linked */
	uint32_t nr, size;
};

/* The piece at data + off, or 0 and nothing if it is not one.  A linker
 * may pad between pieces: a zero word is skipped (*skip). */
static int piece_at(const struct elf_file *f, const uint8_t *data, uint64_t off,
		    uint64_t len, struct piece *pc, int *skip)
{
	uint32_t magic, nr, size;

	*skip = 0;
	if (len - off < 4)
		return 0;
	magic = elf_u32(f, data + off);
	if (magic == 0) {
		*skip = 1;
		return 0;
	}
	if (len - off < FUNCTABLE_HEAD || magic != FUNCTABLE_MAGIC)
		return 0;
	nr = elf_u32(f, data + off + 4);
	size = elf_u32(f, data + off + 8);
	if (size < FUNCTABLE_HEAD || size % 4 || size > len - off ||
	    (size - FUNCTABLE_HEAD) / FUNCTABLE_ENTRY < nr)
		return 0;
	*pc = (struct piece){ data + off, 0, nr, size };
	return 1;
}

/* One entry, at link-time addresses; the name points into f. */
struct entry {
	uint64_t site, func;
	const char *name;	/* NULL: no function holds the site */
};

/* Entry i of a piece; 0 if its name lies outside the piece. */
static int entry_of(const struct elf_file *f, const struct piece *pc, uint32_t i,
		    struct entry *e)
{
	uint32_t at = FUNCTABLE_HEAD + i * FUNCTABLE_ENTRY;
	int32_t site = (int32_t)elf_u32(f, pc->p + at);
	uint32_t name = elf_u32(f, pc->p + at + 4);
	uint32_t entry = elf_u32(f, pc->p + at + 8);

	e->site = pc->addr + at + (int64_t)site;
	e->func = e->site - entry;
	e->name = NULL;
	if (entry == FUNCTABLE_NO_FUNC)
		return 1;
	if (name < FUNCTABLE_HEAD + (uint64_t)pc->nr * FUNCTABLE_ENTRY || name >= pc->size ||
	    !memchr(pc->p + name, '\0', pc->size - name))
		return 0;
	e->name = (const char *)pc->p + name;
	return 1;
}

/* Each piece of the section, in order; -1 if it holds anything else. */
static int for_each_piece(const struct elf_file *f, int sec,
			  int (*fn)(void *arg, const struct piece *pc), void *arg)
{
	const struct elf_section *s = &f->sections[sec];
	const uint8_t *data = elf_section_data(f, sec);
	uint64_t off = 0;

	if (!data)
		return -1;
	while (off < s->size) {
		struct piece pc;
		int skip, ret;

		if (!piece_at(f, data, off, s->size, &pc, &skip)) {
			if (!skip)
				return -1;
			off += 4;
			continue;
		}
		pc.addr = s->addr + off;
		ret = fn(arg, &pc);
		if (ret)
			return ret;
		off += pc.size;
	}
	return 0;
}

static int count_piece(void *arg, const struct piece *pc)
{
	*(uint64_t *)arg += pc->nr;
	return 0;
}

struct fill {
	const struct elf_file *f;
	struct image_sites *out;
};

/* Each entry a site, if the arch agrees it is one; -1 if malformed. */
static int fill_piece(void *arg, const struct piece *pc)
{
	const struct fill *fl = arg;
	struct image_sites *out = fl->out;

	for (uint32_t i = 0; i < pc->nr; i++) {
		struct entry e;
		struct site *s = &out->v[out->nr];

		if (!entry_of(fl->f, pc, i, &e))
			return -1;
		if (!e.name || !out->arch->check_site(fl->f, e.site, e.func, s)) {
			out->skipped++;
			continue;
		}
		s->name = e.name;
		out->nr++;
	}
	return 0;
}

int functable_sites(const struct elf_file *f, int loc, struct image_sites *out)
{
	int sec = elf_find_section(f, FUNCTABLE_NAME);
	struct fill fl = { f, out };
	uint64_t n = 0;

	if (sec <= 0 || for_each_piece(f, sec, count_piece, &n) ||
	    n != f->sections[loc].size / elf_word_size(f) || n > UINT_MAX)
		return 0;
	out->v = bulk_alloc((n ? n : 1) * sizeof(*out->v));
	if (!out->v)
		return -1;
	if (for_each_piece(f, sec, fill_piece, &fl) == 0) {
		out->source = SOURCE_FUNCTABLE;
		return 1;
	}
	bulk_free(out->v);	/* malformed: not believed at all */
	out->v = NULL;
	out->nr = out->skipped = 0;
	return 0;
}
