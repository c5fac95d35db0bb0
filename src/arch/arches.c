// SPDX-License-Identifier: GPL-2.0
/*
 * The table of architectures: the one place a port adds an entry.
 */
#include "arch.h"

#include <string.h>

extern const struct arch_desc arch_x86_64, arch_i386, arch_aarch64;
extern const struct arch_desc arch_riscv64, arch_mips;

static const struct arch_desc *const arches[] = {
	&arch_x86_64,
	&arch_i386,
	&arch_aarch64,
	&arch_riscv64,
	&arch_mips,
};

const struct arch_desc *arch_lookup(unsigned machine)
{
	for (unsigned i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i]->machine == machine)
			return arches[i];
	return NULL;
}

const struct arch_desc *arch_of_triple(const char *triple)
{
	for (unsigned i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (!strncmp(triple, arches[i]->name, strlen(arches[i]->name)))
			return arches[i];
	return NULL;
}

static int contains(const uint64_t *v, unsigned n, uint64_t x)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

int mcount_is_slot(const struct mcount_targets *t, uint64_t slot)
{
	return contains(t->slots, t->nr_slots, slot);
}

static int mcount_is_func(const struct mcount_targets *t, uint64_t addr)
{
	return contains(t->funcs, t->nr_funcs, addr);
}

int mcount_is_call(const struct elf_file *f, const struct mcount_targets *t, uint64_t target)
{
	const struct arch_desc *arch = arch_lookup(f->machine);
	uint64_t slot;

	if (mcount_is_func(t, target))
		return 1;
	return arch && arch->plt_slot && arch->plt_slot(f, target, &slot) &&
	       mcount_is_slot(t, slot);
}

/* Does the site at p hold what the form says (its relocated fields masked)? */
int mcount_form_matches(const struct elf_file *f, const struct mcount_call_form *form,
			const uint8_t *p)
{
	for (unsigned u = 0; u < form->units; u++) {
		uint32_t v = form->unit == 1 ? p[u] : elf_u32(f, p + 4 * u);

		if ((v & form->mask[u]) != form->match[u])
			return 0;
	}
	return 1;
}
