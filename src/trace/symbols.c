// SPDX-License-Identifier: GPL-2.0
/*
 * Address to function name, through the ELF symbol tables of the modules
 * a process had mapped.  The runtime address of a symbol is the module's
 * load bias plus the symbol's link-time value.
 */
#include "symbols.h"
#include "../common/sort.h"
#include "demangle.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sym_table_init(struct sym_table *t, const struct tr_process *proc)
{
	t->nr_mods = proc->nr_modules;
	t->mods = calloc(t->nr_mods ? t->nr_mods : 1, sizeof(*t->mods));
	if (!t->mods)
		return -1;
	for (unsigned i = 0; i < t->nr_mods; i++)
		t->mods[i].mod = &proc->modules[i];
	return 0;
}

void sym_table_free(struct sym_table *t)
{
	for (unsigned i = 0; i < t->nr_mods; i++) {
		free(t->mods[i].syms);
		if (t->mods[i].state > 0)
			elf_close(&t->mods[i].elf);
	}
	free(t->mods);
	t->mods = NULL;
	t->nr_mods = 0;
}

/* Aliases share an address: prefer a symbol with a size (it can say
 * where the function ends), then a global name over a weak or local one. */
static unsigned sym_rank(const struct elf_sym *s)
{
	unsigned bind = s->bind == STB_GLOBAL ? 2 : s->bind == STB_WEAK ? 1 : 0;

	return (s->size > 0) * 4 + bind;
}

static int is_function(const struct elf_sym *s)
{
	return (s->type == STT_FUNC || s->type == STT_GNU_IFUNC) &&
	       s->shndx != SHN_UNDEF && s->name[0];
}

static int compare_syms(const void *a, const void *b)
{
	const struct sym_entry *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The full symbol table if the file kept one, else the dynamic one. */
static int pick_symtab(const struct elf_file *f)
{
	int s = elf_find_section_type(f, SHT_SYMTAB);

	if (s > 0 && elf_sym_count(f, s) > 0)
		return s;
	return elf_find_section_type(f, SHT_DYNSYM);
}

static int collect_functions(struct sym_module *m, int symtab)
{
	unsigned n = symtab > 0 ? elf_sym_count(&m->elf, symtab) : 0;
	struct elf_sym s;

	m->syms = malloc((n ? n : 1) * sizeof(*m->syms));
	if (!m->syms)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		if (elf_sym_get(&m->elf, symtab, i, &s) || !is_function(&s))
			continue;
		m->syms[m->nr_syms++] = (struct sym_entry) {
			.value = s.value, .size = s.size, .name = s.name,
			.rank = sym_rank(&s),
		};
	}
	sort_array(m->syms, m->nr_syms, sizeof(*m->syms), compare_syms);
	return 0;
}

/* Reads a module's symbols on first use; a module whose file is gone or
 * unreadable is remembered as such and its addresses stay numeric. */
static int load_module(struct sym_module *m)
{
	if (m->state)
		return m->state;
	m->state = -1;
	if (elf_open_path(&m->elf, m->mod->path))
		return -1;
	if (collect_functions(m, pick_symtab(&m->elf))) {
		elf_close(&m->elf);
		return -1;
	}
	m->state = 1;
	return 1;
}

static struct sym_module *module_of(struct sym_table *t, uint64_t addr)
{
	for (unsigned i = 0; i < t->nr_mods; i++)
		if (addr >= t->mods[i].mod->start && addr < t->mods[i].mod->end)
			return &t->mods[i];
	return NULL;
}

/* The last symbol at or below vaddr, or NULL. */
static const struct sym_entry *symbol_below(const struct sym_module *m,
					    uint64_t vaddr)
{
	unsigned lo = 0, hi = m->nr_syms;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (m->syms[mid].value <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &m->syms[lo - 1] : NULL;
}

/* The function containing addr, or NULL. */
static const char *sym_lookup(struct sym_table *t, uint64_t addr)
{
	struct sym_module *m = module_of(t, addr);
	const struct sym_entry *s;
	uint64_t vaddr;

	if (!m || load_module(m) < 0)
		return NULL;
	vaddr = addr - m->mod->bias;
	s = symbol_below(m, vaddr);
	if (!s || (s->size && vaddr - s->value >= s->size))
		return NULL;
	return s->name;
}

/* An address no symbol covers (libc's, stripped of its local symbols):
 * its module's file name and its address there, as objdump shows it;
 * hex alone outside every module. */
static const char *module_offset(struct sym_table *t, uint64_t addr, char *buf, size_t len)
{
	struct sym_module *m = module_of(t, addr);
	const char *path = m ? m->mod->path : NULL, *slash = path ? strrchr(path, '/') : NULL;

	if (path)
		snprintf(buf, len, "%s+0x%" PRIx64, slash ? slash + 1 : path, addr - m->mod->bias);
	else
		snprintf(buf, len, "0x%" PRIx64, addr);
	return buf;
}

/* The name of the function at lookup (demangled into buf if it is C++),
 * or where addr is (module_offset). */
static const char *name_at(struct sym_table *t, uint64_t lookup, uint64_t addr,
			   char *buf, size_t len)
{
	const char *name = sym_lookup(t, lookup);
	char *plain;

	if (name && strncmp(name, "_Z", 2))
		return name;
	if (name && (plain = demangle(name))) {
		snprintf(buf, len, "%s", plain);
		free(plain);
		return buf;
	}
	return module_offset(t, addr, buf, len);
}

const char *sym_name(struct sym_table *t, uint64_t addr, char *buf, size_t len)
{
	return name_at(t, addr, addr, buf, len);
}

/* The byte before a return address is its call's, which lies in the
 * caller even when the call was its last instruction (one that never
 * returns): the next function may start at the address itself. */
const char *sym_caller_name(struct sym_table *t, uint64_t ret, char *buf, size_t len)
{
	return name_at(t, ret ? ret - 1 : 0, ret, buf, len);
}
