// SPDX-License-Identifier: GPL-2.0
/*
 * The planner over a whole image: every function symbol, scanned, then
 * checked against the branch targets of all of them (detour.h).
 */
#include "detour.h"
#include "../sites/funcsyms.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The end of the section holding addr, or 0. */
static uint64_t section_end(const struct elf_file *f, uint64_t addr)
{
	for (unsigned i = 0; i < f->shnum; i++) {
		const struct elf_section *s = &f->sections[i];

		if ((s->flags & SHF_ALLOC) && addr >= s->addr && addr < s->addr + s->size)
			return s->addr + s->size;
	}
	return 0;
}

/* A symbol of size 0 (an assembly routine's, crtstuff's) is taken to end
 * where the next one starts, or with its section; as for any function,
 * every instruction of it is then decoded. */
static uint64_t size_of(const struct elf_file *f, const struct funcsyms *fs, unsigned i)
{
	uint64_t end = section_end(f, fs->v[i].addr);

	if (fs->v[i].size)
		return fs->v[i].size;
	if (i + 1 < fs->nr && fs->v[i + 1].addr < end)
		end = fs->v[i + 1].addr;
	return end ? end - fs->v[i].addr : 0;
}

/*
 * gcc moves a function's unlikely blocks into a symbol of their own,
 * "f.cold" (older gccs: "f.cold.N"), which the function jumps to: no
 * call, so no return address where a tracer would look for one (the
 * graph tracer would replace a word of its caller's frame), and an
 * exception's landing pad is often there.  Scanned all the same, for
 * the branches back into f.
 */
static int is_cold_part(const char *name)
{
	const char *cold = strstr(name, ".cold"), *next;

	while (cold && (next = strstr(cold + 1, ".cold")))
		cold = next;
	if (!cold)
		return 0;
	cold += strlen(".cold");
	if (*cold == '.' && cold[1])
		cold += 1 + strspn(cold + 1, "0123456789");
	return *cold == '\0';
}

static int scan_all(struct detour_dec *d, const struct elf_file *f, const struct funcsyms *fs,
		    struct detour_plans *out, struct detour_targets *t)
{
	for (unsigned i = 0; i < fs->nr; i++) {
		struct detour_plan *p = &out->v[i];
		const uint8_t *code;

		p->func = fs->v[i].addr;
		p->size = size_of(f, fs, i);
		p->name = fs->v[i].name;
		p->patch = p->func;
		code = elf_vaddr_ptr(f, p->func, p->size ? p->size : 1);
		if (!code)
			p->refusal = DETOUR_NOT_IN_FILE;
		else if (detour_scan(d, code, p, t))
			return -1;
		if (is_cold_part(p->name) && !p->refusal) {
			p->refusal = DETOUR_COLD_PART;
			p->why_at = p->func;
		}
	}
	out->nr = fs->nr;
	return 0;
}

static int is_exec(const struct elf_file *f, uint64_t addr)
{
	for (unsigned i = 0; i < f->shnum; i++) {
		const struct elf_section *s = &f->sections[i];

		if ((s->flags & SHF_EXECINSTR) && s->type == SHT_PROGBITS &&
		    addr >= s->addr && addr < s->addr + s->size)
			return 1;
	}
	return 0;
}

/*
 * A jump table's entries are branch targets.  Its length is not known:
 * every address a lea takes outside the code may be one, and is read up to
 * the next such address (where another object starts: a compiler takes
 * the address of a table at its start, never inside it), and for as long
 * as its words, 32-bit offsets from it, land in code (every entry of a
 * table does).  Reading too far only adds targets: a refusal, never a
 * wrong patch.  Without the first bound, one table read on into the next
 * (offsets from another base) refused 2 % of libLLVM's functions.
 */
static int read_table(const struct elf_file *f, uint64_t base, uint64_t end,
		      struct detour_targets *t)
{
	const uint8_t *p;

	if (is_exec(f, base))
		return 0;
	for (uint64_t at = base; at + 4 <= end && (p = elf_vaddr_ptr(f, at, 4)); at += 4) {
		uint64_t target = base + (int64_t)(int32_t)elf_u32(f, p);

		if (!is_exec(f, target))
			break;
		if (detour_add_target(t, target))
			return -1;
	}
	return 0;
}

/* Each address taken once, in order. */
static size_t sort_unique(uint64_t *v, size_t n)
{
	size_t w = 0;

	if (n)
		qsort(v, n, sizeof(*v), detour_cmp_u64);
	for (size_t r = 0; r < n; r++)
		if (w == 0 || v[w - 1] != v[r])
			v[w++] = v[r];
	return w;
}

static int read_tables(const struct elf_file *f, unsigned entry, struct detour_targets *t)
{
	size_t n = sort_unique(t->tables, t->nr_tables);

	for (size_t i = 0; entry == 4 && i < n; i++)
		if (read_table(f, t->tables[i], i + 1 < n ? t->tables[i + 1] : UINT64_MAX, t))
			return -1;
	return 0;
}

int detour_plan_image(const struct elf_file *f, struct detour_plans *out, char *err,
		      size_t errlen)
{
	const struct arch_desc *arch = arch_lookup(f->machine);
	struct detour_targets t = { 0 };
	struct funcsyms fs = { 0 };
	struct detour_dec d;
	int ret = -1;

	*out = (struct detour_plans){ 0 };
	if (f->big_endian || detour_open(&d, f->machine)) {
		snprintf(err, errlen, "no detours for %s%s", f->big_endian ? "big-endian " : "",
			 arch ? arch->name : "this machine");
		return -1;
	}
	if (funcsyms_collect(f, &fs) || !(out->v = calloc(fs.nr + 1, sizeof(*out->v))) ||
	    scan_all(&d, f, &fs, out, &t) || read_tables(f, d.arch->table_entry, &t)) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	detour_targets_sort(&t);
	for (unsigned i = 0; i < out->nr; i++) {
		detour_check(&t, &out->v[i]);
		out->ok += out->v[i].refusal == DETOUR_OK;
	}
	ret = 0;
done:
	if (ret)
		detour_plans_free(out);
	detour_targets_free(&t);
	funcsyms_free(&fs);
	detour_close(&d);
	return ret;
}

void detour_plans_free(struct detour_plans *p)
{
	free(p->v);
	*p = (struct detour_plans){ 0 };
}
