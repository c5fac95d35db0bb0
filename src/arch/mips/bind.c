// SPDX-License-Identifier: GPL-2.0
/*
 * mips: a module's GOT and PLT slots of _mcount are bound before its sites
 * are enabled.
 *
 * An enabled site is the compiler's own call, through the GOT (PIC) or
 * the PLT.  Bound lazily, the first call goes through glibc's resolver
 * (_dl_runtime_resolve), which keeps ra (in t7) but not at: _mcount then
 * finds 1 in at instead of the parent's return address, and a leaf, which
 * returns through the at _mcount gives back, would return there.  So the
 * slots get the address the resolver would have written, ours, at once.
 *
 * The slots, from the module's dynamic section (mips keeps it read-only:
 * its addresses are link-time ones, the load bias is added here):
 *   GOT   symbol i >= DT_MIPS_GOTSYM owns slot DT_MIPS_LOCAL_GOTNO + i - DT_MIPS_GOTSYM
 *   PLT   R_MIPS_JUMP_SLOT relocations in DT_JMPREL (non-PIC executables)
 * A slot already bound (BIND_NOW, or RELRO after it) holds our address and
 * is not written.
 */
#include "../arch.h"
#include "../../sites/sites.h"

#include <elf.h>
#include <link.h>

extern char _mcount[];

struct dyn_info {
	uintptr_t bias, got, symtab, strtab, jmprel;
	unsigned long local, gotsym, symtabno, pltrelsz;
};

static void bind(uintptr_t *slot)
{
	if (*slot != (uintptr_t)_mcount)
		__atomic_store_n(slot, (uintptr_t)_mcount, __ATOMIC_RELAXED);
}

static const char *sym_name(const struct dyn_info *d, unsigned long i)
{
	const Elf32_Sym *sym = (const Elf32_Sym *)d->symtab + i;

	return (const char *)d->strtab + sym->st_name;
}

static void read_dynamic(const Elf32_Dyn *dyn, struct dyn_info *d)
{
	for (; dyn->d_tag != DT_NULL; dyn++) {
		uintptr_t v = dyn->d_un.d_val;

		switch (dyn->d_tag) {
		case DT_PLTGOT:		d->got = d->bias + v; break;
		case DT_SYMTAB:		d->symtab = d->bias + v; break;
		case DT_STRTAB:		d->strtab = d->bias + v; break;
		case DT_JMPREL:		d->jmprel = d->bias + v; break;
		case DT_PLTRELSZ:	d->pltrelsz = v; break;
		case DT_MIPS_LOCAL_GOTNO: d->local = v; break;
		case DT_MIPS_GOTSYM:	d->gotsym = v; break;
		case DT_MIPS_SYMTABNO:	d->symtabno = v; break;
		}
	}
}

static void bind_module(const struct dyn_info *d)
{
	if (!d->symtab || !d->strtab)
		return;
	for (unsigned long i = d->gotsym; d->got && i < d->symtabno; i++)
		if (is_mcount_name(sym_name(d, i)))
			bind((uintptr_t *)d->got + d->local + i - d->gotsym);
	for (unsigned long off = 0; d->jmprel && off + sizeof(Elf32_Rel) <= d->pltrelsz;
	     off += sizeof(Elf32_Rel)) {
		const Elf32_Rel *r = (const Elf32_Rel *)(d->jmprel + off);

		if (ELF32_R_TYPE(r->r_info) == R_MIPS_JUMP_SLOT &&
		    is_mcount_name(sym_name(d, ELF32_R_SYM(r->r_info))))
			bind((uintptr_t *)(d->bias + r->r_offset));
	}
}

static int prepare_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct dyn_info d = { .bias = *(uintptr_t *)arg };

	if (info->dlpi_addr != d.bias)
		return 0;
	for (unsigned i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) {
			read_dynamic((const Elf32_Dyn *)(d.bias + info->dlpi_phdr[i].p_vaddr), &d);
			bind_module(&d);
		}
	return 1;
}

void arch_module_prepare(uintptr_t bias)
{
	dl_iterate_phdr(prepare_one, &bias);
}
