// SPDX-License-Identifier: GPL-2.0
/*
 * A module's library calls, from its file (libcalls.c makes each a
 * record): every R_*_JUMP_SLOT slot of an undefined symbol, the slots its
 * PLT jumps through; and the R_*_GLOB_DAT slots of undefined functions
 * its code only calls through, -fno-plt's "call *slot".  A GLOB_DAT slot
 * also gives the function's address to code that takes it ("mov slot,
 * %reg"): pointed at a stub, that address would differ from the one the
 * library and every other module see, and a comparison of the two would
 * fail.  So every reference the module's code makes to such a slot is
 * looked for (arch_got_uses()), and a slot with any reference other than
 * a call or jump is left alone.
 */
#include "ftrace.h"
#include "libcalls.h"
#include "messages.h"
#include "../common/array.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* Calls not taken (libcalls.c says why). */
static const char *const never_traced[] = {
#define FT_WRAP(name) #name,
#include "wrapped.h"
	"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", "getcontext", "vfork",
	"mcount", "_mcount", "__fentry__",
	/* the program's start (through a GLOB_DAT slot): every call would
	 * nest inside one that never returns */
	"__libc_start_main",
	/* they know their caller by their return address (RTLD_NEXT, its
	 * scope), which the graph tracer makes the runtime's */
	"dlsym", "dlvsym", "dlmopen",
	/* older compilers' TLS sequences call it with the stack unaligned */
	"__tls_get_addr",
};

static int never(const char *name)
{
	for (size_t i = 0; i < sizeof(never_traced) / sizeof(never_traced[0]); i++)
		if (!strcmp(name, never_traced[i]))
			return 1;
	return 0;
}

/* The version the module asks of symbol sym (.gnu.version's entry,
 * named in .gnu.version_r); NULL if none. */
static const char *needed_version(const struct elf_file *f, unsigned sym)
{
	int vs = elf_find_section_type(f, SHT_GNU_versym);
	int vn = elf_find_section_type(f, SHT_GNU_verneed);
	const uint8_t *v, *need, *str;
	uint64_t off = 0, vn_size, str_size;
	unsigned want;

	if (vs <= 0 || vn <= 0 || (uint64_t)sym * 2 + 2 > f->sections[vs].size ||
	    f->sections[vn].link >= f->shnum)
		return NULL;
	v = elf_section_data(f, vs);
	need = elf_section_data(f, vn);
	str = elf_section_data(f, f->sections[vn].link);
	vn_size = f->sections[vn].size;
	str_size = f->sections[f->sections[vn].link].size;
	if (!v || !need || !str || (want = elf_u16(f, v + 2 * sym) & 0x7fff) < 2)
		return NULL;
	for (unsigned n = 0; n < f->sections[vn].info && off + 16 <= vn_size; n++) {
		uint64_t aux = off + elf_u32(f, need + off + 8);

		for (unsigned a = elf_u16(f, need + off + 2); a && aux + 16 <= vn_size; a--) {
			uint32_t name = elf_u32(f, need + aux + 8);

			if (elf_u16(f, need + aux + 6) == want && name < str_size &&
			    memchr(str + name, 0, str_size - name))
				return (const char *)str + name;
			aux += elf_u32(f, need + aux + 12);
		}
		if (!elf_u32(f, need + off + 12))
			break;
		off += elf_u32(f, need + off + 12);
	}
	return NULL;
}

/* -fno-plt's slots, found first, kept if only called through. */
struct glob_dat {
	uint64_t *slots;	/* link-time addresses, sorted once all are in */
	uint32_t *syms;		/* each one's symbol */
	unsigned n;
	size_t cap, cap_syms;
};

static int push_glob_dat(struct glob_dat *g, uint64_t slot, uint32_t sym)
{
	if (grow_array((void **)&g->slots, &g->cap, g->n + 1, sizeof(*g->slots)) ||
	    grow_array((void **)&g->syms, &g->cap_syms, g->n + 1, sizeof(*g->syms)))
		return -1;
	g->slots[g->n] = slot;
	g->syms[g->n++] = sym;
	return 0;
}

/* A slot of the module's, by one of its file's dynamic relocations: a
 * JUMP_SLOT's made a record now, a GLOB_DAT's kept for the scan. */
static int take_rel(struct ft_module *mod, unsigned idx, const struct elf_file *f,
		    unsigned symtab, const struct elf_rel *r, struct glob_dat *g)
{
	const struct arch_desc *arch = arch_lookup(f->machine);
	uintptr_t slot = mod->bias + r->offset;
	struct elf_sym s;

	if (!arch || (r->type != arch->rel_jump_slot && r->type != arch->rel_glob_dat) ||
	    r->sym == 0 || elf_sym_get(f, symtab, r->sym, &s) || s.shndx != SHN_UNDEF ||
	    !s.name[0] || never(s.name) || slot % sizeof(uintptr_t) || slot < mod->start ||
	    slot + sizeof(uintptr_t) > mod->end)
		return 0;
	/* A weak one is tested before it is called ("cmpq $0,slot"): never
	 * only called through, and not worth a scan of the code. */
	if (r->type == arch->rel_glob_dat)
		return s.type == STT_FUNC && s.bind != STB_WEAK ?
		       push_glob_dat(g, r->offset, r->sym) : 0;
	return ftrace_libcall_add(mod, idx, slot, s.name, needed_version(f, r->sym));
}

static void sort_pairs(struct glob_dat *g)
{
	/* Few slots: an insertion sort keeps each symbol with its slot. */
	for (unsigned i = 1; i < g->n; i++)
		for (unsigned k = i; k > 0 && g->slots[k - 1] > g->slots[k]; k--) {
			uint64_t s = g->slots[k];
			uint32_t y = g->syms[k];

			g->slots[k] = g->slots[k - 1], g->syms[k] = g->syms[k - 1];
			g->slots[k - 1] = s, g->syms[k - 1] = y;
		}
}

/* The GLOB_DAT slots every executable segment's code only calls through. */
static int take_glob_dat(struct ft_module *mod, unsigned idx, const struct elf_file *f,
			 unsigned symtab, struct glob_dat *g)
{
	uint8_t *use = g->n ? calloc(g->n, 1) : NULL;
	int ret = 0;

	if (!g->n || !use)
		return g->n ? -1 : 0;
	sort_pairs(g);
	for (unsigned i = 0; i < f->phnum; i++) {
		const struct elf_segment *p = &f->segments[i];

		if (p->type == PT_LOAD && (p->flags & PF_X) && p->offset <= f->size &&
		    p->filesz <= f->size - p->offset)
			arch_got_uses(f->data + p->offset, p->filesz, p->vaddr, g->slots, g->n,
				      use);
	}
	for (unsigned i = 0; i < g->n && !ret; i++) {
		struct elf_sym s;

		if (use[i] == ARCH_GOT_CALLED && !elf_sym_get(f, symtab, g->syms[i], &s))
			ret = ftrace_libcall_add(mod, idx, mod->bias + g->slots[i], s.name,
						 needed_version(f, g->syms[i]));
	}
	free(use);
	return ret;
}

int ftrace_libcalls_read(struct ft_module *mod, unsigned idx, const struct elf_file *f)
{
	struct glob_dat g = { 0 };
	unsigned symtab = 0;
	int ret = 0;

	if (!ARCH_HAVE_LIBCALLS || !mod->nr_recs || mod->nr_libcalls ||
	    elf_word_size(f) != sizeof(uintptr_t))
		return 0;
	for (unsigned i = 1; i < f->shnum && !ret; i++) {
		const struct elf_section *s = &f->sections[i];

		if ((s->type != SHT_RELA && s->type != SHT_REL) || !(s->flags & SHF_ALLOC))
			continue;
		for (unsigned k = 0; k < elf_rel_count(f, i) && !ret; k++) {
			struct elf_rel r;

			if (!elf_rel_get(f, i, k, &r))
				ret = take_rel(mod, idx, f, s->link, &r, &g);
		}
		symtab = s->link;
	}
	if (!ret)
		ret = take_glob_dat(mod, idx, f, symtab, &g);
	free(g.slots);
	free(g.syms);
	if (mod->nr_libcalls)
		ft_debug("%s: %u library calls", mod->path, mod->nr_libcalls);
	return ret;
}
