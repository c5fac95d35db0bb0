// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace attach: the runtime's wrappers reach the program without
 * LD_PRELOAD.
 *
 * Preloaded, libfntrace.so is first in every symbol lookup, so a module's
 * calls to longjmp, sigaction, dlopen ... bind to its wrappers.  Loaded
 * into a running process, it is last (and local): those calls are bound to
 * libc and libgcc already.  So the GOT slot of each such call, in every
 * module, is pointed at the wrapper, and what it held is kept to be put
 * back on detach:
 *
 *   before:  call longjmp@plt -> jmp *slot    slot: libc's longjmp
 *   after:   call longjmp@plt -> jmp *slot    slot: our longjmp
 *                                             which calls ft_real("longjmp")
 *
 * A slot is one aligned word: a thread calling through it meanwhile takes
 * the old function or the new one, and both are right.  A slot under RELRO
 * is made writable for the store, and read-only again.  Every pass runs
 * inside dl_iterate_phdr(), where no module can be unmapped under it; a
 * module the program loads later gets its pass when the module list is
 * next brought up to date (the dlopen wrapper, which its calls now reach,
 * or any update).
 */
#include "ftrace.h"
#include "interpose.h"
#include "linkage.h"
#include "messages.h"
#include "../arch/arch.h"
#include "../common/array.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Every function the runtime wraps (FT_EXPORT over a libc or libgcc one),
 * then ThreadSanitizer's entry hook, which the runtime wraps where TSan
 * runs, preloaded or attached (sanitized.c): TSan's runtime comes first in
 * the lookup order, so only its callers' GOT slots can reach ours. */
static const char *const wrapped[] = {
#define FT_WRAP(name) #name,
#include "wrapped.h"
	"__tsan_func_entry",
};
#define NR_WRAPPED (sizeof(wrapped) / sizeof(wrapped[0]) - 1)
#define TSAN_ENTRY NR_WRAPPED

static uintptr_t ours[NR_WRAPPED + 1];	/* our wrappers' addresses */

/* A slot pointed at a wrapper, and what it held. */
struct redirect {
	uintptr_t *slot;
	uintptr_t old;
	int seen;			/* met in the latest pass */
};

static struct redirect *redirects;
static unsigned nr_redirects;
static size_t cap_redirects;
static int interposing;		/* the wrappers, for fntrace attach */
static int tsan_entries;	/* TSan's entry hook */

ft_sigaction_fn ft_real_sigaction(void)
{
	static ft_sigaction_fn fn;

	if (!fn)
		fn = (ft_sigaction_fn)ft_real("sigaction");
	return fn;
}

/* ---- the modules' dynamic sections ---- */

/* ELF32_R_SYM or ELF64_R_SYM, as the process is. */
#define REL_INFO_(class, part, info) ELF##class##_R_##part(info)
#define REL_INFO(class, part, info) REL_INFO_(class, part, info)
#define rel_sym(info) REL_INFO(__ELF_NATIVE_CLASS, SYM, info)
#define rel_type(info) REL_INFO(__ELF_NATIVE_CLASS, TYPE, info)

struct dyn_tables {
	const struct arch_desc *arch;	/* its GOT relocation types */
	uintptr_t bias, symtab, strtab;
	uintptr_t rel[3];		/* JMPREL, RELA, REL */
	size_t relsz[3], relent[3];
	uintptr_t relro_lo, relro_hi;
};

/* glibc makes most arches' d_ptr absolute in memory; mips and riscv keep
 * them as linked.  A link-time address lies below the load bias. */
static uintptr_t dyn_addr(const struct dyn_tables *t, uintptr_t v)
{
	return v < t->bias ? t->bias + v : v;
}

static void dyn_entry(struct dyn_tables *t, const ElfW(Dyn) *d, int *plt_rela)
{
	switch (d->d_tag) {
	case DT_SYMTAB:   t->symtab = dyn_addr(t, d->d_un.d_ptr); break;
	case DT_STRTAB:   t->strtab = dyn_addr(t, d->d_un.d_ptr); break;
	case DT_JMPREL:   t->rel[0] = dyn_addr(t, d->d_un.d_ptr); break;
	case DT_PLTRELSZ: t->relsz[0] = d->d_un.d_val; break;
	case DT_PLTREL:   *plt_rela = d->d_un.d_val == DT_RELA; break;
	case DT_RELA:     t->rel[1] = dyn_addr(t, d->d_un.d_ptr); break;
	case DT_RELASZ:   t->relsz[1] = d->d_un.d_val; break;
	case DT_RELAENT:  t->relent[1] = d->d_un.d_val; break;
	case DT_REL:      t->rel[2] = dyn_addr(t, d->d_un.d_ptr); break;
	case DT_RELSZ:    t->relsz[2] = d->d_un.d_val; break;
	case DT_RELENT:   t->relent[2] = d->d_un.d_val; break;
	}
}

static int dyn_tables(const struct dl_phdr_info *info, struct dyn_tables *t)
{
	const ElfW(Dyn) *dyn = NULL;
	int plt_rela = 0;

	memset(t, 0, sizeof(*t));
	t->arch = arch_lookup(((const ElfW(Ehdr) *)ft_own_base())->e_machine);
	t->bias = info->dlpi_addr;
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(t->bias + ph->p_vaddr);
		if (ph->p_type == PT_GNU_RELRO) {
			t->relro_lo = t->bias + ph->p_vaddr;
			t->relro_hi = t->relro_lo + ph->p_memsz;
		}
	}
	for (; dyn && dyn->d_tag != DT_NULL; dyn++)
		dyn_entry(t, dyn, &plt_rela);
	t->relent[0] = plt_rela ? sizeof(ElfW(Rela)) : sizeof(ElfW(Rel));
	return dyn && t->arch && t->symtab && t->strtab ? 0 : -1;
}

/* ---- one slot ---- */

static struct redirect *redirect_of(uintptr_t *slot)
{
	for (unsigned i = 0; i < nr_redirects; i++)
		if (redirects[i].slot == slot)
			return &redirects[i];
	return NULL;
}

/* Is the page at addr writable now?  Under RELRO it is read-only once its
 * module is relocated; while another thread's dlopen relocates it, it is
 * still writable, and its protection is the loader's to change. */
static int writable_now(uintptr_t addr)
{
	char line[512];
	int writable = 0;
	FILE *maps = fopen("/proc/self/maps", "re");

	while (maps && fgets(line, sizeof(line), maps)) {
		unsigned long lo, hi;
		char perms[8];

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && lo <= addr && addr < hi) {
			writable = perms[1] == 'w';
			break;
		}
	}
	if (maps)
		fclose(maps);
	return writable;
}

static int store_slot(const struct dyn_tables *t, uintptr_t *slot, uintptr_t value)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	uintptr_t page = (uintptr_t)slot & ~(uintptr_t)(pagesz - 1);
	int relro = t->relro_lo <= (uintptr_t)slot && (uintptr_t)slot < t->relro_hi &&
		    !writable_now((uintptr_t)slot);

	if (relro && mprotect((void *)page, pagesz, PROT_READ | PROT_WRITE))
		return -1;
	__atomic_store_n(slot, value, __ATOMIC_RELEASE);
	if (relro && mprotect((void *)page, pagesz, PROT_READ))
		ft_warn("cannot make a GOT page read-only again");
	return 0;
}

/* Point the slot at our wrapper, keeping what it held. */
static int redirect_slot(const struct dyn_tables *t, uintptr_t *slot, uintptr_t wrapper)
{
	struct redirect *r = redirect_of(slot);

	if (*slot == wrapper) {
		if (r)
			r->seen = 1;
		return 0;
	}
	if (!r && grow_array((void **)&redirects, &cap_redirects, nr_redirects + 1,
			     sizeof(*redirects)))
		return -1;
	if (!r)
		r = &redirects[nr_redirects++];
	*r = (struct redirect){ slot, *slot, 1 };
	return store_slot(t, slot, wrapper);
}

/* Give the slot back what it held, if it still holds our wrapper. */
static int restore_slot(const struct dyn_tables *t, uintptr_t *slot, uintptr_t wrapper)
{
	struct redirect *r = redirect_of(slot);

	if (!r || *slot != wrapper)
		return 0;
	return store_slot(t, slot, r->old);
}

/* ---- one module ---- */

static int wrapped_index(const struct dyn_tables *t, unsigned long sym)
{
	const ElfW(Sym) *s = (const ElfW(Sym) *)t->symtab + sym;
	const char *name = (const char *)t->strtab + s->st_name;

	for (unsigned i = 0; i <= NR_WRAPPED; i++)
		if (ours[i] && !strcmp(name, wrapped[i]))
			return i;
	return -1;
}

/* Are the program's calls to wrapped[i] to reach ours now? */
static int wanted(unsigned i)
{
	return i == TSAN_ENTRY ? tsan_entries : interposing;
}

static int each_slot(const struct dyn_tables *t, unsigned table)
{
	size_t ent = t->relent[table];
	int ret = 0;

	for (size_t off = 0; t->rel[table] && ent && off + ent <= t->relsz[table]; off += ent) {
		const ElfW(Rel) *r = (const ElfW(Rel) *)(t->rel[table] + off);
		unsigned type = rel_type(r->r_info);
		uintptr_t *slot;
		int i;

		if (type != t->arch->rel_jump_slot && type != t->arch->rel_glob_dat)
			continue;
		if ((i = wrapped_index(t, rel_sym(r->r_info))) < 0)
			continue;
		slot = (uintptr_t *)(t->bias + r->r_offset);
		ret |= wanted(i) ? redirect_slot(t, slot, ours[i]) : restore_slot(t, slot, ours[i]);
	}
	return ret;
}

static int each_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct dyn_tables t;
	int *ret = arg;

	if (info->dlpi_addr == ft_own_base() || dyn_tables(info, &t))
		return 0;
	for (unsigned table = 0; table < 3; table++)
		*ret |= each_slot(&t, table);
	return 0;
}

/* A pass over every module; redirects of modules gone are forgotten. */
static int pass(void)
{
	unsigned kept = 0;
	int ret = 0;

	for (unsigned i = 0; i < nr_redirects; i++)
		redirects[i].seen = 0;
	dl_iterate_phdr(each_module, &ret);
	for (unsigned i = 0; i < nr_redirects; i++)
		if (redirects[i].seen)
			redirects[kept++] = redirects[i];
	nr_redirects = kept;
	return ret ? -1 : 0;
}

/* ---- what the rest of the runtime calls ---- */

/* Our own wrappers, by name in our own module: dlsym on our handle finds
 * ours first, where a lookup by address of the FT_EXPORTed name would
 * take the program's.  libc's dlopen and dlclose, not ours: preloaded
 * (fntrace run or record, then attach), our own calls bind to our
 * wrappers, whose module update takes ftrace_lock, held here. */
static int find_ours(void)
{
	void *(*real_dlopen)(const char *, int) = ft_real("dlopen");
	int (*real_dlclose)(void *) = ft_real("dlclose");
	Dl_info info;
	void *self;

	if (!ft_own_base() || !dladdr((void *)find_ours, &info) || !real_dlopen || !real_dlclose ||
	    !(self = real_dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD)))
		return -1;
	for (unsigned i = 0; i < NR_WRAPPED; i++) {
		ours[i] = (uintptr_t)dlsym(self, wrapped[i]);
		if (!ours[i] || !ft_in_own_library((void *)ours[i]))
			ours[i] = 0;
	}
	real_dlclose(self);
	return 0;
}

/* fntrace attach, after the runtime's start-up: take over the program's
 * calls to every wrapped function.  Called under ftrace_lock(). */
int ft_interpose_start(void)
{
	if (interposing)
		return 0;
	if (find_ours())
		return -1;
	interposing = 1;
	tsan_entries = ours[TSAN_ENTRY] != 0;	/* again, after a detach */
	if (pass() == 0)
		return 0;
	ft_interpose_stop();
	return -1;
}

/* Where TSan runs: the program's calls to its entry hook reach wrapper.
 * Called under ftrace_lock(). */
int ft_interpose_tsan_entry(void (*wrapper)(void *pc))
{
	ours[TSAN_ENTRY] = (uintptr_t)wrapper;
	tsan_entries = 1;
	return pass();
}

/* Modules came or went: the new ones' slots too. */
void ft_interpose_refresh(void)
{
	if ((interposing || tsan_entries) && pass())
		ft_warn("cannot point a new module's calls at the runtime");
}

/* fntrace detach: every slot as it was. */
int ft_interpose_stop(void)
{
	int ret;

	if (!interposing && !tsan_entries)
		return 0;
	interposing = tsan_entries = 0;
	ret = pass();
	nr_redirects = 0;
	return ret;
}

int ft_interposed(void)
{
	return interposing;
}

/* Is fn a sanitizer's interceptor of name?  Each has its own name beside
 * the public one: __interceptor_NAME (gcc, LLVM up to 16), or
 * ___interceptor_NAME and __interceptor_trampoline_NAME (LLVM 17 on). */
static int sanitizer_interceptor(const char *name, const void *fn)
{
	static const char *const prefixes[] = {
		"__interceptor_", "___interceptor_", "__interceptor_trampoline_",
	};
	char own_name[128];

	for (unsigned i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		snprintf(own_name, sizeof(own_name), "%s%s", prefixes[i], name);
		if (dlsym(RTLD_DEFAULT, own_name) == fn)
			return 1;
	}
	return 0;
}

/*
 * Do the program's calls to name reach ours, the wrapper at own?  Ours is
 * the definition every lookup finds first (preloaded), or the GOT slots
 * point at it (attached); or a sanitizer's interceptor comes first, in its
 * runtime (preloaded before ours: src/common/sanitizer.h) or in the
 * program (clang links it in), and calls the next definition, which is
 * ours, as every sanitizer finds the real function with RTLD_NEXT.
 */
int ft_wrapper_reached(const char *name, const void *own)
{
	void *first = dlsym(RTLD_DEFAULT, name);

	return !first || first == own || interposing || sanitizer_interceptor(name, first);
}
