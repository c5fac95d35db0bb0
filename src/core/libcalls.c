// SPDX-License-Identifier: GPL-2.0
/*
 * Library calls: a traced module's calls into shared libraries, made
 * records like its call sites.  The "site" of such a call is its GOT slot
 * (R_*_JUMP_SLOT, which the module's PLT stub jumps through, or a
 * GLOB_DAT one -fno-plt's code calls through); its name is the symbol's,
 * its module the library the slot is bound to.
 *
 *   off:  call malloc@plt -> jmp *slot    slot: libc's malloc (or, lazy,
 *                                               back into the PLT)
 *   on:   call malloc@plt -> jmp *slot    slot: stub
 *         stub: call *ftrace_caller       an entry site's call: the
 *               jmp  *malloc              caller's return address above
 *
 * MAKE_CALL is one aligned word stored into the slot, MAKE_NOP the word
 * it held stored back: a thread calling meanwhile takes the library
 * function directly or through the stub, both right, so no breakpoint is
 * needed.  Every store first finds in the slot the word the update
 * expects.  A page under RELRO is writable only during the store
 * (textprot.c), its protection the program's again after.
 *
 * Each slot has a stub of its own (ARCH_LIBCALL_STUB bytes, the arch's),
 * in pages that never move: the stub's call returns to stub + len, the
 * record's ip + len, so the tracers find the record by the same lookup
 * as any site's.  A stub reads its target from a word in the page after
 * its own, written before the slot ever points at it.
 *
 * A lazily bound slot still points into the module's own PLT: jumping
 * there would have the dynamic linker's resolver overwrite the slot.  So
 * the target is found first, as the resolver would find it: dlvsym()
 * with the version the module asks for (.gnu.version_r), in the global
 * scope, then in the module's own (an RTLD_LOCAL dlopen).  That lookup
 * takes the loader's lock, which no code inside dl_iterate_phdr() may
 * take (modules.c): it runs between two pinned passes, and the second one
 * binds what it found.  A slot already bound (BIND_NOW, full RELRO, or a
 * lazy one called once) names its target itself.
 *
 * Not taken: calls into a module that has call sites
 * of its own (traced there), into the runtime, the functions it wraps
 * (their slots are interpose.c's under fntrace attach), those that return
 * twice (a second return would find the graph tracer's frame gone),
 * those that know their caller by their return address (dlsym), mcount,
 * the program's start, and -fno-plt's slots that also give a function's
 * address.
 */
#include "ftrace.h"
#include "funcs_file.h"
#include "libcalls.h"
#include "linkage.h"
#include "messages.h"
#include "textprot.h"
#include "../common/array.h"
#include "../common/sort.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum lc_state {
	LC_PENDING,		/* its target not known yet */
	LC_BOUND,		/* target known: may be enabled */
	LC_NEVER,		/* not a call we trace (its record disabled) */
};

struct libcall {
	uint32_t id;		/* its record, whose module is the callee's */
	uint16_t owner;		/* the module whose slot it is */
	uint8_t state;
	uint8_t lazy;		/* the slot pointed into its own module */
	uintptr_t slot;
	uintptr_t looked;	/* what a lookup found for a lazy slot */
	char *version;		/* the version its module asks for, or NULL */
	/* Its record's name, kept here too: the records live in mappings
	 * LeakSanitizer does not read, and would take it for a leak. */
	char *name;
};

/* In id order, as their records were made: found by bisection. */
static struct libcall *calls;
static uint32_t nr_calls;
static size_t cap_calls;

static struct libcall *libcall_of(uint32_t id)
{
	uint32_t lo = 0, hi = nr_calls;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (calls[mid].id == id)
			return &calls[mid];
		if (calls[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

uint32_t ftrace_libcalls_count(void)
{
	return nr_calls;
}

/* ---- stubs ---- */

/* How far into a stub its call returns: a record's len. */
static unsigned stub_ret;

static uintptr_t page_size(void)
{
	return (uintptr_t)sysconf(_SC_PAGESIZE);
}

/* Two pages: the stubs, all alike, then their words (a caller and a
 * target each); the stubs read-only once written. */
static uintptr_t new_stub_block(void)
{
	uintptr_t ps = page_size();
	uint8_t *p = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);

	if (p == MAP_FAILED)
		return 0;
	for (uintptr_t off = 0; off < ps; off += ARCH_LIBCALL_STUB) {
		uintptr_t caller = arch_caller_for(SITE_ENTRY);

		stub_ret = arch_libcall_stub(p + off, ps);
		memcpy(p + ps + off, &caller, sizeof(caller));
	}
	if (mprotect(p, ps, PROT_READ | PROT_EXEC)) {
		munmap(p, 2 * ps);
		return 0;
	}
	return (uintptr_t)p;
}

static uintptr_t new_stub(void)
{
	static uintptr_t block, used;

	if (!block || used == page_size()) {
		block = new_stub_block();
		used = 0;
	}
	if (!block)
		return 0;
	used += ARCH_LIBCALL_STUB;
	return block + used - ARCH_LIBCALL_STUB;
}

static uintptr_t *stub_target(uintptr_t stub)
{
	return (uintptr_t *)(stub + page_size() + sizeof(uintptr_t));
}

/* ---- a slot made a record (libcalls_read.c finds them) ---- */

int ftrace_libcall_add(struct ft_module *mod, unsigned idx, uintptr_t slot, const char *name,
		       const char *version)
{
	struct ftrace_rec rec = { .module = idx, .kind = SITE_LIBCALL,
				  .flags = FTRACE_FL_DISABLED };	/* until bound */
	struct libcall *lc;
	uintptr_t word = *(const uintptr_t *)slot;

	if (grow_array((void **)&calls, &cap_calls, nr_calls + 1, sizeof(*calls)) ||
	    !(rec.ip = new_stub()) || !(rec.name = strdup(name)))
		return -1;
	rec.len = stub_ret;
	memcpy(rec.orig, &word, sizeof(word));
	lc = &calls[nr_calls];
	*lc = (struct libcall){ .owner = idx, .slot = slot, .name = (char *)rec.name,
				.version = version ? strdup(version) : NULL };
	if (!(lc->id = ftrace_rec_add(&rec)))
		return -1;
	if (!mod->nr_libcalls)
		mod->first_libcall = lc->id;
	mod->nr_libcalls++;
	nr_calls++;
	return 0;
}

/* ---- a module gone, or back at another address ---- */

void ftrace_libcalls_unload(const struct ft_module *mod)
{
	for (uint32_t i = 0; i < mod->nr_libcalls; i++) {
		struct ftrace_rec *rec = ftrace_rec_get(mod->first_libcall + i);

		rec->flags = (rec->flags | FTRACE_FL_DISABLED) & ~FTRACE_FL_ENABLED;
	}
}

/* Its slots moved with it: each is read, and bound, again. */
void ftrace_libcalls_rebase(const struct ft_module *mod, uintptr_t old_bias)
{
	for (uint32_t i = 0; i < mod->nr_libcalls; i++) {
		struct libcall *lc = libcall_of(mod->first_libcall + i);
		struct ftrace_rec *rec = ftrace_rec_get(mod->first_libcall + i);

		lc->slot = lc->slot - old_bias + mod->bias;
		lc->state = LC_PENDING;
		lc->looked = 0;
		rec->module = lc->owner;
		rec->flags = FTRACE_FL_DISABLED;
		rec->func = 0;
		memcpy(rec->orig, (const void *)lc->slot, sizeof(uintptr_t));
	}
}

/* ---- binding: which function each slot reaches ---- */

static int module_at(uintptr_t addr)
{
	for (unsigned i = 0; i < ftrace_module_count(); i++) {
		const struct ft_module *m = ftrace_module_get(i);

		if (!m->gone && m->start <= addr && addr < m->end)
			return (int)i;
	}
	return -1;
}

/* A library whose functions are traced at their calls: one with no call
 * sites of its own (those are traced there), nor detours (traced at their
 * entries, detours.c), not the runtime. */
static int plain_library(const struct ft_module *m)
{
	return !m->nr_recs && !m->nr_detours && !m->deferred && !ft_own_image(m->start, m->end);
}

static void set_never(struct libcall *lc)
{
	lc->state = LC_NEVER;
	ftrace_rec_get(lc->id)->flags |= FTRACE_FL_DISABLED;
}

/* Inside the pin: the slot's module is mapped.  Bound, the record is
 * the callee's, as a function of that module. */
static void bind_one(struct libcall *lc)
{
	struct ftrace_rec *rec = ftrace_rec_get(lc->id);
	const struct ft_module *mod = ftrace_module_get(lc->owner);
	uintptr_t word = *(const uintptr_t *)lc->slot, target = word;
	int callee;

	lc->lazy = word >= mod->start && word < mod->end;
	if (lc->lazy)
		target = lc->looked;
	if (!target)
		return;
	/* No module there: a module another thread's dlopen() has not
	 * relocated yet holds a link-time word; the next pass looks again. */
	callee = module_at(target);
	if (callee < 0)
		return;
	if (callee == lc->owner || !plain_library(ftrace_module_get(callee))) {
		set_never(lc);
		return;
	}
	memcpy(rec->orig, &word, sizeof(word));
	rec->func = target;
	rec->module = (uint16_t)callee;
	*stub_target(rec->ip) = target;
	rec->flags &= ~FTRACE_FL_DISABLED;
	lc->state = LC_BOUND;
	ft_funcs_write_rec(lc->id, callee);
}

static int waits(const struct libcall *lc)
{
	return lc->state == LC_PENDING && !ftrace_module_get(lc->owner)->gone;
}

unsigned ftrace_libcalls_bind(void)
{
	unsigned bound = 0;

	for (uint32_t i = 0; i < nr_calls; i++)
		if (waits(&calls[i])) {
			bind_one(&calls[i]);
			bound += calls[i].state == LC_BOUND;
		}
	return bound;
}

static uintptr_t lookup_in(void *handle, const char *name, const char *version)
{
	return (uintptr_t)(version ? dlvsym(handle, name, version) : dlsym(handle, name));
}

/* In the module's own scope: its dependencies, where it was opened
 * RTLD_LOCAL.  The loader's dlopen and dlclose, not our wrappers, which
 * would update the modules. */
static uintptr_t lookup_local(const char *path, const char *name, const char *version)
{
	void *(*real_dlopen)(const char *, int) = ft_real("dlopen");
	int (*real_dlclose)(void *) = ft_real("dlclose");
	void *h = real_dlopen && real_dlclose ? real_dlopen(path, RTLD_LAZY | RTLD_NOLOAD) : NULL;
	uintptr_t found = h ? lookup_in(h, name, version) : 0;

	if (h)
		real_dlclose(h);
	return found;
}

/* Outside the pin (the lookups take the loader's lock), under
 * ftrace_lock: the targets of the lazy slots the last binding saw, which
 * the next one binds; how many were found. */
unsigned ftrace_libcalls_lookup(void)
{
	unsigned found = 0;

	for (uint32_t i = 0; i < nr_calls; i++) {
		struct libcall *lc = &calls[i];
		const struct ftrace_rec *rec = ftrace_rec_get(lc->id);

		if (!waits(lc) || !lc->lazy || lc->looked)
			continue;
		lc->looked = lookup_in(RTLD_DEFAULT, rec->name, lc->version);
		if (!lc->looked)
			lc->looked = lookup_local(ftrace_module_get(lc->owner)->path, rec->name,
						  lc->version);
		if (!lc->looked)
			set_never(lc);
		found += lc->looked != 0;
	}
	return found;
}

/*
 * Inside the pin: the module callee has detours now (taken late,
 * modules.c), which see every call into it.  A call bound there is no
 * longer taken: a slot switched on gets the loader's word back first,
 * verified as every store is, so that no call is counted twice.
 */
int ftrace_libcalls_let_go(unsigned callee)
{
	for (uint32_t i = 0; i < nr_calls; i++) {
		struct libcall *lc = &calls[i];
		struct ftrace_rec *rec = ftrace_rec_get(lc->id);
		struct got_patch p;

		if (lc->state != LC_BOUND || rec->module != callee)
			continue;
		if ((rec->flags & FTRACE_FL_ENABLED) &&
		    (ftrace_libcall_patch(lc->id, 0, &p) || got_patch_verify(&p, 1) ||
		     got_patch_write(&p, 1)))
			return -1;
		rec->flags &= ~FTRACE_FL_ENABLED;
		set_never(lc);
	}
	return 0;
}

/* ---- what the rest of the runtime asks ---- */

int ftrace_libcall_callee(uint32_t id)
{
	const struct libcall *lc = libcall_of(id);

	return lc && lc->state == LC_BOUND ? ftrace_rec_get(id)->module : -1;
}

/* ---- the update's GOT stores ---- */

int ftrace_libcall_patch(uint32_t id, int enable, struct got_patch *p)
{
	const struct libcall *lc = libcall_of(id);
	const struct ftrace_rec *rec = ftrace_rec_get(id);
	uintptr_t orig;

	if (!lc || lc->state != LC_BOUND)
		return -1;
	memcpy(&orig, rec->orig, sizeof(orig));
	*p = (struct got_patch){
		.id = id, .slot = lc->slot, .old = enable ? orig : rec->ip,
		.alt = rec->func, .new = enable ? rec->ip : orig, .enable = enable,
	};
	return 0;
}

/* Does the slot hold what the patch expects: its old word, or the
 * target the dynamic linker bound a lazy slot to since? */
int got_patch_verify(const struct got_patch *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uintptr_t now = __atomic_load_n((uintptr_t *)v[i].slot, __ATOMIC_ACQUIRE);

		if (now != v[i].old && now != v[i].alt) {
			ft_warn("unexpected word in the GOT slot of %s at %#lx: not patching",
				ftrace_rec_get(v[i].id)->name, (unsigned long)v[i].slot);
			return -1;
		}
	}
	return 0;
}

static int by_slot(const void *a, const void *b)
{
	const struct got_patch *x = a, *y = b;

	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/*
 * One store, from the old word or the loader's binding.  Switched off,
 * a slot the loader bound since holds its target, which is off already.
 * Switched on, the word found is the one to put back.
 */
static int store_slot(const struct got_patch *p)
{
	uintptr_t *slot = (uintptr_t *)p->slot, seen = p->old;

	if (__atomic_compare_exchange_n(slot, &seen, p->new, 0, __ATOMIC_RELEASE,
					__ATOMIC_RELAXED))
		return 0;
	if (seen != p->alt)
		return -1;
	if (!p->enable)
		return 0;
	if (!__atomic_compare_exchange_n(slot, &seen, p->new, 0, __ATOMIC_RELEASE,
					 __ATOMIC_RELAXED))
		return -1;
	memcpy(ftrace_rec_get(p->id)->orig, &seen, sizeof(seen));
	return 0;
}

/* Every slot stored, the pages of those under RELRO writable meanwhile. */
int got_patch_write(struct got_patch *v, unsigned n)
{
	uintptr_t ps = page_size(), last = 0;
	int ret = 0;

	if (!n)
		return 0;
	sort_array(v, n, sizeof(*v), by_slot);
	if (text_window_open())
		return -1;
	for (unsigned i = 0; i < n && !ret; i++) {
		uintptr_t page = v[i].slot & ~(ps - 1);

		if (page != last)
			ret = text_window_add_data(page, page + ps);
		last = page;
	}
	for (unsigned i = 0; i < n && !ret; i++)
		if (store_slot(&v[i])) {
			ft_warn("the GOT slot of %s changed under the update",
				ftrace_rec_get(v[i].id)->name);
			ret = -1;
		}
	text_window_close();
	return ret;
}
