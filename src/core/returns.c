// SPDX-License-Identifier: GPL-2.0
/*
 * Return sites.  gcc's -minstrument-return=nop5 -mrecord-return (x86)
 * puts a 5-byte nop before every return of a function, and before the
 * jump of a tail call, and lists them in __return_loc.  While a graph
 * tracer is on, every return site of such a module calls
 * ftrace_return_caller, and the graph hooks leave its functions' return
 * addresses alone: no hijacked return that misses the CPU's return stack
 * buffer, no indirect jump back.
 *
 *   off:  func: ...; leave; 0f 1f 44 00 00   nopl 0x0(%rax,%rax,1); ret
 *   on:   func: ...; leave; e8 <rel32>       call ftrace_return_caller; ret
 *
 * A site before a tail call's jump calls ftrace_tail_caller: which of the
 * two a site is, the instruction after it says, once, as it is read.
 *
 * clang's come from XRay's exit and tail-call sleds, which recordmcount
 * rewrote into the same form (src/recordmcount/xray.c), or on aarch64
 * into "mov x16, x30; nop" at the sled's end (ARCH_XRAY_SITE_AT): their
 * table is xray_instr_map, read from the file (its addresses are
 * relative).  A module whose sleds are all as XRay left them was built
 * for XRay, not by fntrace cc: it has no return sites, and nothing is
 * said.
 *
 * A module's return sites go on and off together, with the graph caller,
 * whatever the filters say: the return of a function that was not traced
 * finds no frame of its own and does nothing.  Its records carry
 * FTRACE_FL_RETURNS only while all of them are on: set once the batch
 * that enabled them is written, cleared before the one that disables
 * them, so a frame is pushed without its return address taken only when
 * its return will be seen.  A module with any entry that is not a nop as
 * the file has it keeps the hijack for all its functions.
 */
#include "ftrace.h"
#include "messages.h"
#include "../common/bulk.h"
#include "../common/sort.h"
#include "../sites/sites.h"
#include "../sites/xray_map.h"

#include <elf.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SITE_LEN ARCH_RETURN_SITE_LEN
#define SITE_PRE ARCH_RETURN_SITE_PRE
#define SITE_SPAN (SITE_PRE + SITE_LEN)

/* The site is off, as the file has it, in the file and in memory (with
 * the words before it that go with it: aarch64's "mov x16, x30"). */
static int nop_as_in_file(const struct ft_module *mod, const struct elf_file *f,
			  uintptr_t ip, const uint8_t *off)
{
	uintptr_t from = ip - SITE_PRE;
	const uint8_t *file = elf_vaddr_ptr(f, from - mod->bias, SITE_SPAN);

	return file && from >= mod->text_lo && ip + SITE_LEN <= mod->text_hi &&
	       !memcmp(file, off, SITE_SPAN) && !memcmp((const void *)from, off, SITE_SPAN);
}

static int by_address(const void *a, const void *b)
{
	const struct return_site *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* A site whose next instruction is not a return, or not in the text,
 * is taken for a tail call's: its frame then ends as a hijacked one
 * does, always right, only slower. */
static uint8_t site_kind(const struct ft_module *mod, uintptr_t ip)
{
	uintptr_t next = ip + SITE_LEN;

	if (next + ARCH_MAX_INSN <= mod->text_hi && arch_insn_is_return((const uint8_t *)next))
		return SITE_RETURN;
	return SITE_TAIL_CALL;
}

/* The table as the loader relocated it: entries hold run-time addresses,
 * appended to the module's sites.  An entry the link dropped (a
 * discarded function's) points nowhere in the module's text and is
 * skipped; any other that is not a nop leaves the module without return
 * sites (-1). */
static int read_table(struct ft_module *mod, const struct elf_file *f,
		      const uintptr_t *table, size_t n)
{
	uint8_t nop[SITE_SPAN];

	arch_return_site_off(nop);
	for (size_t i = 0; i < n; i++) {
		uintptr_t ip = table[i];

		if (ip < mod->text_lo || ip >= mod->text_hi)
			continue;
		if (!nop_as_in_file(mod, f, ip, nop)) {
			ft_warn("%s: a return site at %#lx is not what the file says; "
				"its returns are hijacked instead", mod->path, (unsigned long)ip);
			return -1;
		}
		mod->returns[mod->nr_returns++] = (struct return_site){ ip, site_kind(mod, ip) };
	}
	return 0;
}

/* The run-time addresses of the sites made of the exit and tail-call
 * sleds xray_instr_map lists, in a bulk allocation, their number in *n;
 * NULL if none. */
static uintptr_t *xray_sleds(const struct ft_module *mod, const struct elf_file *f, size_t *n)
{
	int sec = elf_find_section(f, XRAY_MAP_NAME);
	const struct elf_section *s = sec > 0 ? &f->sections[sec] : NULL;
	const uint8_t *entry = s ? elf_section_data(f, (unsigned)sec) : NULL;
	size_t nr = entry ? s->size / XRAY_ENTRY_SIZE : 0;
	uintptr_t *ips = nr ? bulk_alloc(nr * sizeof(*ips)) : NULL;

	*n = 0;
	for (size_t i = 0; ips && i < nr; i++, entry += XRAY_ENTRY_SIZE) {
		if (xray_return_sled(entry))
			ips[(*n)++] = (uintptr_t)(mod->bias + s->addr + i * XRAY_ENTRY_SIZE +
						  elf_u64(f, entry)) + ARCH_XRAY_SITE_AT;
	}
	return ips;
}

/* Has fntrace cc made any of these sleds a return site? */
static int any_site_made(const struct ft_module *mod, const struct elf_file *f,
			 const uintptr_t *ips, size_t n)
{
	uint8_t nop[SITE_SPAN];

	arch_return_site_off(nop);
	for (size_t i = 0; i < n; i++)
		if (nop_as_in_file(mod, f, ips[i], nop))
			return 1;
	return 0;
}

/*
 * A return site finds its frame by the slot below the stack pointer the
 * epilogue left, where an entry site (or a detour) keeps it.  Where a
 * frame's saved x30 floats (aarch64), a -pg site's frame is known by the
 * slot in the function's frame record instead, anywhere in its frame:
 * a module with such sites keeps the hijack (fntrace cc gives clang's
 * aarch64 objects patchable entries with their return sites).
 */
static int slots_meet(const struct ft_module *mod)
{
	for (uint32_t i = 0; ARCH_RETURN_SLOT_FLOATS && i < mod->nr_recs; i++)
		if (ftrace_rec_get(mod->first_id + i)->kind == SITE_FRAME)
			return 0;
	return 1;
}

/*
 * gcc's table and clang's, both where a module was linked from objects of
 * both compilers: every function's returns must be sites if any are.
 */
void ftrace_returns_read(struct ft_module *mod, const struct elf_file *f)
{
	struct sites_mapping map = { mod->bias, mod->start, mod->end };
	const uintptr_t *table;
	uintptr_t *sleds;
	size_t n, n_sleds;

	/* A thread that blocks SIGTRAP could not be stopped short of a
	 * half-written site: such a load keeps the hijack. */
	if (!arch_has_return_sites() || mod->load_mode == 2 || !slots_meet(mod))
		return;
	table = sites_table_mapped(f, elf_find_section(f, "__return_loc"), &map, &n);
	sleds = xray_sleds(mod, f, &n_sleds);
	if (sleds && !any_site_made(mod, f, sleds, n_sleds))
		n_sleds = 0;
	if (n + n_sleds)
		mod->returns = bulk_alloc((n + n_sleds) * sizeof(*mod->returns));
	if (mod->returns && (read_table(mod, f, table, n) || read_table(mod, f, sleds, n_sleds)))
		mod->nr_returns = 0;
	bulk_free(sleds);
	if (!mod->returns)
		return;
	sort_array(mod->returns, mod->nr_returns, sizeof(*mod->returns), by_address);
	if (!mod->nr_returns)
		ftrace_returns_free(mod);
	ft_debug("%s: %u return sites", mod->path, mod->nr_returns);
}

void ftrace_returns_free(struct ft_module *mod)
{
	bulk_free(mod->returns);
	mod->returns = NULL;
	mod->nr_returns = 0;
	mod->returns_on = 0;
}

/* Its records moved with it; its sites are nops again, as its file has
 * them, or the module goes without. */
void ftrace_returns_rebase(struct ft_module *mod, uintptr_t old_bias)
{
	uint8_t nop[SITE_SPAN];

	arch_return_site_off(nop);
	mod->returns_on = 0;
	for (uint32_t i = 0; i < mod->nr_returns; i++) {
		mod->returns[i].ip += mod->bias - old_bias;
		if (memcmp((const void *)(mod->returns[i].ip - SITE_PRE), nop, SITE_SPAN)) {
			ftrace_returns_free(mod);
			return;
		}
	}
}

uint32_t ftrace_returns_count(void)
{
	uint32_t n = 0;

	for (unsigned i = 0; i < ftrace_module_count(); i++)
		n += ftrace_module_get(i)->nr_returns;
	return n;
}

static int changes(const struct ft_module *mod, int want)
{
	return !mod->gone && mod->nr_returns && mod->returns_on != want;
}

static void set_records(const struct ft_module *mod, int on)
{
	for (uint32_t i = 0; i < mod->nr_recs; i++) {
		struct ftrace_rec *rec = ftrace_rec_get(mod->first_id + i);

		if (on)
			rec->flags |= FTRACE_FL_RETURNS;
		else
			rec->flags &= ~FTRACE_FL_RETURNS;
	}
}

static int site_patch(const struct ft_module *mod, const struct return_site *site, int want,
		      struct text_patch *p)
{
	uint8_t *nop = want ? p->old : p->new, *call = want ? p->new : p->old;

	p->addr = site->ip;
	p->len = SITE_LEN;
	p->guard = 0;
	arch_make_nop(NULL, SITE_LEN, nop);
	return ftrace_site_call(mod, site->ip, nop, SITE_LEN,
				arch_caller_for(site->kind), call);
}

void ftrace_returns_walk_start(struct returns_walk *w, int want)
{
	w->want = want;
	w->mod = UINT_MAX;
	w->next = 0;
}

/* The module's turn, for a module that changes: a walk enters each once,
 * as a module's records have consecutive ids.  Its records lose
 * FTRACE_FL_RETURNS before the batch that turns them off. */
static void enter(struct returns_walk *w, unsigned m)
{
	struct ft_module *mod = ftrace_module_get(m);
	int take = changes(mod, w->want);

	w->mod = m;
	w->next = take ? 0 : mod->nr_returns;
	if (take && !w->want)
		set_records(mod, 0);
}

/* The current module's return sites below upto. */
static int take_below(struct returns_walk *w, uintptr_t upto, struct text_patch *v,
		      uint32_t *n)
{
	const struct ft_module *mod = ftrace_module_get(w->mod);

	for (; mod && w->next < mod->nr_returns && mod->returns[w->next].ip < upto; w->next++)
		if (site_patch(mod, &mod->returns[w->next], w->want, &v[(*n)++]))
			return -1;
	return 0;
}

int ftrace_returns_before(struct returns_walk *w, const struct ftrace_rec *rec,
			  struct text_patch *v, uint32_t *n)
{
	if (rec->module != w->mod) {
		if (take_below(w, UINTPTR_MAX, v, n))
			return -1;
		enter(w, rec->module);
	}
	return take_below(w, rec->ip, v, n);
}

/* And the modules with return sites but no records. */
int ftrace_returns_finish(struct returns_walk *w, struct text_patch *v, uint32_t *n)
{
	if (take_below(w, UINTPTR_MAX, v, n))
		return -1;
	for (unsigned m = 0; m < ftrace_module_count(); m++) {
		if (ftrace_module_get(m)->nr_recs)
			continue;	/* entered with its records */
		enter(w, m);
		if (take_below(w, UINTPTR_MAX, v, n))
			return -1;
	}
	return 0;
}

void ftrace_returns_mark(int want)
{
	for (unsigned m = 0; m < ftrace_module_count(); m++) {
		struct ft_module *mod = ftrace_module_get(m);

		if (!changes(mod, want))
			continue;
		mod->returns_on = want;
		if (want)
			set_records(mod, 1);
	}
}
