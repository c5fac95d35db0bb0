// SPDX-License-Identifier: GPL-2.0
/*
 * The function each site is in, for --list: the function symbols of an
 * object sorted by (section, value), searched by halving.
 */
#include "rmc.h"
#include "../common/sort.h"

#include <elf.h>
#include <stdlib.h>

struct rmc_func {
	unsigned sec;
	uint64_t value, size;
	const char *name;
	int rank;		/* among aliases: global, weak, then local */
};

struct rmc_funcs {
	struct rmc_func *v;
	unsigned nr;
};

static int bind_rank(unsigned bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

static int by_place(const void *a, const void *b)
{
	const struct rmc_func *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return y->rank - x->rank;	/* the best alias last: the search ends on it */
}

struct rmc_funcs *rmc_funcs_new(const struct elf_file *f, unsigned symtab)
{
	unsigned n = symtab ? elf_sym_count(f, symtab) : 0;
	struct rmc_funcs *fs = calloc(1, sizeof(*fs));

	if (!fs || !(fs->v = malloc((n + 1) * sizeof(*fs->v)))) {
		free(fs);
		return NULL;
	}
	for (unsigned i = 1; i < n; i++) {
		struct elf_sym s;

		if (elf_sym_get(f, symtab, i, &s) || !s.name[0] ||
		    (s.type != STT_FUNC && s.type != STT_GNU_IFUNC) ||
		    s.shndx == SHN_UNDEF || s.shndx >= f->shnum)
			continue;
		fs->v[fs->nr++] = (struct rmc_func){ s.shndx, s.value, s.size, s.name,
						     bind_rank(s.bind) };
	}
	sort_array(fs->v, fs->nr, sizeof(*fs->v), by_place);
	return fs;
}

const char *rmc_func_at(const struct rmc_funcs *fs, unsigned sec, uint64_t off,
			uint64_t *start)
{
	unsigned lo = 0, hi = fs->nr;
	const struct rmc_func *fn;

	while (lo < hi) {	/* the first function placed after (sec, off) */
		unsigned mid = lo + (hi - lo) / 2;
		const struct rmc_func *m = &fs->v[mid];

		if (m->sec < sec || (m->sec == sec && m->value <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return "?";
	fn = &fs->v[lo - 1];
	if (fn->sec != sec || (fn->size && off - fn->value >= fn->size))
		return "?";
	if (start)
		*start = fn->value;
	return fn->name;
}

void rmc_funcs_free(struct rmc_funcs *fs)
{
	if (fs)
		free(fs->v);
	free(fs);
}
