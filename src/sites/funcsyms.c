// SPDX-License-Identifier: GPL-2.0
/*
 * An image's function symbols, sorted by address (funcsyms.h).
 */
#include "funcsyms.h"
#include "sites.h"
#include "../common/bulk.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/*
 * Function symbols sorted by address, a radix sort of RADIX_BITS a pass:
 * a symbol table is in no order (globals come in the hash's), and qsort's
 * 1.7 M indirect compares for 100 000 symbols cost more than the rest of
 * discovery together.  Each pass is stable, and one whose digit is the
 * same for every symbol (the high bits of most addresses) moves nothing.
 */
#define RADIX_BITS	11
#define RADIX		(1u << RADIX_BITS)

static unsigned digit(const struct funcsym *s, unsigned shift)
{
	return (s->addr >> shift) & (RADIX - 1);
}

/* 0 if every symbol has the same digit: then nothing was moved. */
static int radix_pass(const struct funcsym *src, struct funcsym *dst, unsigned n,
		      unsigned shift)
{
	unsigned count[RADIX] = { 0 }, pos = 0;

	for (unsigned i = 0; i < n; i++)
		count[digit(&src[i], shift)]++;
	if (count[digit(&src[0], shift)] == n)
		return 0;
	for (unsigned d = 0; d < RADIX; d++) {
		unsigned c = count[d];

		count[d] = pos;
		pos += c;
	}
	for (unsigned i = 0; i < n; i++)
		dst[count[digit(&src[i], shift)]++] = src[i];
	return 1;
}

static int sort_by_addr(struct funcsyms *fs)
{
	struct funcsym *tmp, *src = fs->v, *dst;

	if (fs->nr < 2)
		return 0;
	tmp = bulk_alloc(fs->nr * sizeof(*tmp));
	if (!tmp)
		return -1;
	dst = tmp;
	for (unsigned shift = 0; shift < 64; shift += RADIX_BITS)
		if (radix_pass(src, dst, fs->nr, shift)) {
			struct funcsym *t = src;

			src = dst;
			dst = t;
		}
	if (src != fs->v) {
		tmp = fs->v;
		fs->v = src;
	}
	bulk_free(tmp);
	return 0;
}

/* Among aliases, the global name first, then weak, then local. */
static int bind_rank(unsigned bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : bind == STB_LOCAL ? 2 : 3;
}

static int add_funcs_from(const struct elf_file *f, int symtab, struct funcsyms *out)
{
	unsigned n = symtab > 0 ? elf_sym_count(f, symtab) : 0;
	struct funcsym *v;

	if (n == 0)
		return 0;
	v = bulk_realloc(out->v, (out->nr + n) * sizeof(*v));
	if (!v)
		return -1;
	out->v = v;
	for (unsigned i = 0; i < n; i++) {
		struct elf_sym s;

		if (elf_sym_get(f, symtab, i, &s) || s.shndx == SHN_UNDEF ||
		    (s.type != STT_FUNC && s.type != STT_GNU_IFUNC) ||
		    !s.name[0] || is_mcount_name(s.name))
			continue;
		v[out->nr++] = (struct funcsym){ s.value, s.name,
						  s.size > UINT32_MAX ? UINT32_MAX : s.size, s.bind };
	}
	return 0;
}

/* Function symbols sorted by address, one name per address. */
int funcsyms_collect(const struct elf_file *f, struct funcsyms *out)
{
	int symtab = elf_find_section_type(f, SHT_SYMTAB);
	unsigned w = 0;

	if (add_funcs_from(f, symtab > 0 ? symtab : elf_find_section_type(f, SHT_DYNSYM), out) ||
	    sort_by_addr(out))
		return -1;
	for (unsigned r = 0; r < out->nr; r++)
		if (w == 0 || out->v[w - 1].addr != out->v[r].addr)
			out->v[w++] = out->v[r];
		else if (bind_rank(out->v[r].bind) < bind_rank(out->v[w - 1].bind))
			out->v[w - 1] = out->v[r];
	out->nr = w;
	return 0;
}

/* How many symbols start at or below addr.  A table's entries come
 * mostly in address order: the symbol after the last one found (*hint)
 * is tried before a search of the whole array, whose last steps each
 * missed the cache. */
static unsigned count_below(const struct funcsyms *fs, uint64_t addr, unsigned *hint)
{
	unsigned lo = 0, hi = fs->nr, h = *hint;

	if (h < fs->nr && fs->v[h].addr <= addr) {
		if (h + 1 == fs->nr || fs->v[h + 1].addr > addr)
			return h + 1;
		lo = h + 1;
	}
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (fs->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The function containing addr; a table entry may name the function's
 * first byte, or a byte inside it (after a prologue). */
const struct funcsym *funcsyms_at(const struct funcsyms *fs, uint64_t addr, unsigned *hint)
{
	unsigned lo = count_below(fs, addr, hint);

	if (lo == 0)
		return NULL;
	*hint = lo - 1;
	const struct funcsym *s = &fs->v[lo - 1];
	uint64_t end = s->size ? s->addr + s->size :
		       (lo < fs->nr ? fs->v[lo].addr : s->addr + 1);

	return addr < end ? s : NULL;
}

void funcsyms_free(struct funcsyms *fs)
{
	bulk_free(fs->v);
	fs->v = NULL;
	fs->nr = 0;
}
