// SPDX-License-Identifier: GPL-2.0
/*
 * A module's call sites made records (modules.c decides when): each site
 * checked against the file, its bytes in memory against the file's, made
 * a record and a nop, in one batch; and the quick look at a few entries
 * of a table that lets a module of nops wait unread.
 */
#include "breakpoint.h"
#include "ftrace.h"
#include "messages.h"
#include "modload.h"
#include "sync.h"
#include "../common/bulk.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* The site's bytes in memory must be the file's: anything else means the
 * file is not what was loaded, and the site is left alone. */
static int site_in_memory(const struct elf_file *f, const struct ft_module *mod,
			  const struct site *s)
{
	uintptr_t ip = mod->bias + s->addr;
	const uint8_t *want = elf_vaddr_ptr(f, s->addr, s->len);

	return want && ip >= mod->text_lo && ip + s->len <= mod->text_hi &&
	       memcmp((const void *)ip, want, s->len) == 0;
}

/*
 * The sites' names, kept as long as their records: they point into the
 * file's string table (or its side file), unmapped after the load.  One
 * copy of the span they lie in, read in order, not a strdup per site:
 * in the sites' order each name was a cache miss in the table's.  A span
 * much larger than the names (few sites in a large table) is not copied.
 */
struct names {
	const char *lo;
	char *copy;
};

static void copy_names(struct names *nm, const struct image_sites *sites)
{
	const char *lo = NULL, *hi = NULL;
	size_t span;

	for (unsigned i = 0; i < sites->nr; i++) {
		const char *name = sites->v[i].name;

		lo = !lo || name < lo ? name : lo;
		hi = !hi || name > hi ? name : hi;
	}
	nm->lo = lo;
	nm->copy = NULL;
	if (!lo)
		return;
	span = hi - lo + strlen(hi) + 1;
	if (span <= 64 * (size_t)sites->nr + 4096 && (nm->copy = bulk_alloc(span)))
		memcpy(nm->copy, lo, span);
}

static const char *name_of(const struct names *nm, const char *name)
{
	return nm->copy ? nm->copy + (name - nm->lo) : strdup(name);
}

static int add_record(struct ft_module *mod, unsigned mod_idx, const struct site *s,
		      const char *name, struct text_patch *patch)
{
	struct ftrace_rec rec = {
		.ip = mod->bias + s->addr,
		.func = mod->bias + s->func,
		.name = name,
		.module = mod_idx,
		.len = s->len,
		.kind = s->kind,
	};
	uint32_t id;

	if (!rec.name || !(id = ftrace_rec_add(&rec)))
		return -1;
	if (!mod->nr_recs)
		mod->first_id = id;
	mod->nr_recs++;
	patch->addr = rec.ip;
	patch->len = rec.len;
	patch->guard = 0;
	memcpy(patch->old, (const void *)rec.ip, rec.len);
	memcpy(ftrace_rec_get(id)->orig, patch->old, rec.len);
	arch_make_nop(patch->old, rec.len, patch->new);
	return 0;
}

/* The sites a load makes nops, those that are not yet: a module fntrace
 * cc built has none, and allocates nothing for them. */
struct batch {
	struct text_patch *v;
	unsigned n;
};

/* p, unless it changes nothing; room for every site left at the first. */
static int batch_add(struct batch *b, const struct text_patch *p, unsigned left)
{
	if (!memcmp(p->old, p->new, p->len))
		return 0;
	if (!b->v && !(b->v = bulk_alloc(left * sizeof(*b->v))))
		return -1;
	b->v[b->n++] = *p;
	return 0;
}

/* The batch that makes the new records' sites nops was undone (a thread
 * could not be synced): they keep the compiler's calls to mcount (the
 * runtime's stub returns), and their records are never patched. */
static int leave_alone(struct ft_module *mod, unsigned had)
{
	for (uint32_t i = had; i < mod->nr_recs; i++)
		ftrace_rec_get(mod->first_id + i)->flags |= FTRACE_FL_DISABLED;
	ft_warn("%s: its call sites are left alone: %s", mod->path, ftrace_sync_failure());
	return 0;
}

/* Make records for every site, and every site a nop. */
int ftrace_load_sites(struct ft_module *mod, unsigned idx, const struct elf_file *f,
		      const struct image_sites *sites)
{
	unsigned bad = 0, unsafe = 0, had = mod->nr_recs;
	int traps_blocked = mod->load_mode == 2;
	struct batch b = { NULL, 0 };
	struct names nm;
	int ret = 0;

	copy_names(&nm, sites);
	ftrace_rec_reserve(sites->nr);
	for (unsigned i = 0; i < sites->nr && !ret; i++) {
		struct text_patch p;

		if (!site_in_memory(f, mod, &sites->v[i])) {
			bad++;
			continue;
		}
		/* Several instructions cannot be made one under running threads;
		 * nor can a site be trapped where a thread blocks SIGTRAP. */
		if (ftrace_patch_is_live() && ((sites->v[i].flags & SITE_QUIET_ONLY) ||
		    (traps_blocked && !arch_can_poke_atomic(mod->bias + sites->v[i].addr,
							    sites->v[i].len)))) {
			unsafe++;
			continue;
		}
		ret = add_record(mod, idx, &sites->v[i], name_of(&nm, sites->v[i].name), &p) ||
		      batch_add(&b, &p, sites->nr - i);
	}
	if (bad)
		ft_warn("%s: %u call sites differ from the file, left alone", mod->path, bad);
	if (unsafe)
		ft_warn("%s: %u call sites cannot be changed safely while its threads run; "
			"trace it from its start (fntrace run) to have them", mod->path, unsafe);
	if (mod->nr_recs == had)
		bulk_free(nm.copy);
	if (!ret)
		ret = text_patch_batch(b.v, b.n);
	if (ret == TEXT_PATCH_UNDONE)
		ret = leave_alone(mod, had);
	bulk_free(b.v);
	return ret;
}

/*
 * A module that fntrace cc built has its sites as nops already, listed in
 * __mcount_loc: nothing needs its records until an ops wants some, as the
 * kernel's records wait, unpatched, for a tracer.  A few entries spread
 * over the table, read as the loader relocated them, are looked at; each
 * must be a nop, in memory as in the file.  A wrong guess costs speed,
 * never safety: until its records are made, a site that still calls
 * mcount calls the runtime's stub, which returns.
 */
#define NOP_SAMPLES 16

/* 1: a nop site at ip; 0: no site of this module (a dropped function's
 * entry); -1: anything else. */
static int nop_site_at(const struct ft_module *mod, const struct elf_file *f, uintptr_t ip)
{
	uint8_t nop[ARCH_MAX_INSN];
	const uint8_t *file;
	struct site s;

	if (ip < mod->text_lo || ip >= mod->text_hi)
		return 0;
	if (!sites_check_entry(f, ip - mod->bias, &s) || s.len > ARCH_MAX_INSN ||
	    !site_in_memory(f, mod, &s))
		return -1;
	file = elf_vaddr_ptr(f, s.addr, s.len);
	arch_make_nop(file, s.len, nop);
	return memcmp(nop, file, s.len) ? -1 : 1;
}

int ftrace_nops_already(const struct ft_module *mod, const struct elf_file *f)
{
	struct sites_mapping map = { mod->bias, mod->start, mod->end };
	size_t n;
	const uintptr_t *table = sites_table_mapped(f, elf_find_section(f, "__mcount_loc"),
						    &map, &n);
	int good = 0, r = 0;

	if (!table)
		return 0;
	for (size_t i = 0; i < NOP_SAMPLES && r >= 0; i++) {
		r = nop_site_at(mod, f, table[(n - 1) * i / (NOP_SAMPLES - 1)]);
		good += r > 0;
	}
	return r >= 0 && good > 0;
}
