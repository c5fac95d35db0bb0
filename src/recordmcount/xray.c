// SPDX-License-Identifier: GPL-2.0
/*
 * clang's return sites.  clang has no -minstrument-return; its XRay
 * (-fxray-instrument -fxray-instrumentation-bundle=function-exit) leaves
 * a sled at every return and before every tail call's jump, and lists
 * them in xray_instr_map (src/sites/xray_map.h).  fntrace cc asks for
 * them, and recordmcount --nop rewrites each sled into gcc's form of a
 * return site (the arch's xray_return_site says how), where the runtime
 * finds it through the same table once linked (src/core/returns.c).
 *
 * An object holds one xray_instr_map per function, its entries' sled
 * addresses given by relocations against the text.  A linked image
 * (clang's LTO links, whose code the link generates) holds one, whose
 * addresses are relative to the entries.  A sled that is not of the form
 * the arch expects is left as it is: the runtime then finds it no return
 * site, and the module's returns are hijacked.
 */
#include "rmc.h"
#include "../sites/xray_map.h"

#include <elf.h>
#include <string.h>

/* The SHT_RELA section of section sec, or 0. */
static unsigned relocations_of(const struct elf_file *f, unsigned sec)
{
	for (unsigned i = 1; i < f->shnum; i++) {
		const struct elf_section *s = &f->sections[i];

		if (s->type == SHT_RELA && s->info == sec)
			return i;
	}
	return 0;
}

/* The sled at off in the section text, rewritten in out: 1 if it was. */
static int rewrite_at(const struct arch_desc *arch, unsigned kind,
		      const struct elf_section *text, uint64_t off, uint8_t *out)
{
	if (text->type != SHT_PROGBITS || !(text->flags & SHF_EXECINSTR) || off >= text->size)
		return 0;
	return arch->rmc->xray_return_site(kind, out + text->offset + off, text->size - off);
}

/* The sled entry r fills, rewritten in out if it is an exit or tail-call
 * sled in the text: 1 if it was. */
static int rewrite_sled(const struct elf_file *f, const struct arch_desc *arch, unsigned map,
			unsigned symtab, const struct elf_rel *r, uint8_t *out)
{
	const struct elf_section *m = &f->sections[map];
	const uint8_t *entry = f->data + m->offset + r->offset;
	struct elf_sym sym;

	if (r->offset % XRAY_ENTRY_SIZE || r->offset + XRAY_ENTRY_SIZE > m->size ||
	    !xray_return_sled(entry) ||
	    elf_sym_get(f, symtab, r->sym, &sym) || !sym.shndx || sym.shndx >= f->shnum)
		return 0;
	return rewrite_at(arch, entry[XRAY_KIND_AT], &f->sections[sym.shndx],
			  sym.value + (uint64_t)r->addend, out);
}

unsigned rmc_xray_sleds(const struct elf_file *f, const struct arch_desc *arch, uint8_t *out)
{
	unsigned done = 0;

	if (!arch->rmc->xray_return_site || !arch->rmc->rela)
		return 0;
	for (unsigned sec = 1; sec < f->shnum; sec++) {
		unsigned rs = strcmp(elf_section_name(f, sec), XRAY_MAP_NAME) ? 0 :
			      relocations_of(f, sec);
		struct elf_rel r;

		for (unsigned i = 0; rs && elf_rel_get(f, rs, i, &r) == 0; i++)
			done += rewrite_sled(f, arch, sec, f->sections[rs].link, &r, out);
	}
	return done;
}

/* The executable section of an image that holds vaddr, or 0. */
static unsigned text_at(const struct elf_file *f, uint64_t vaddr)
{
	for (unsigned i = 1; i < f->shnum; i++) {
		const struct elf_section *s = &f->sections[i];

		if ((s->flags & SHF_EXECINSTR) && vaddr >= s->addr && vaddr - s->addr < s->size)
			return i;
	}
	return 0;
}

/* The sled of the image's entry at map offset at, rewritten in out: 1 if
 * it was.  The entry's sled address is relative to the entry. */
static int rewrite_image_sled(const struct elf_file *f, const struct arch_desc *arch,
			      const struct elf_section *m, uint64_t at, uint8_t *out)
{
	const uint8_t *entry = f->data + m->offset + at;
	uint64_t sled = m->addr + at + elf_u64(f, entry);
	unsigned sec = xray_return_sled(entry) ? text_at(f, sled) : 0;

	return sec && rewrite_at(arch, entry[XRAY_KIND_AT], &f->sections[sec],
				 sled - f->sections[sec].addr, out);
}

unsigned rmc_xray_image_sleds(const struct elf_file *f, const struct arch_desc *arch,
			      uint8_t *out)
{
	int map = elf_find_section(f, XRAY_MAP_NAME);
	const struct elf_section *m = map > 0 ? &f->sections[map] : NULL;
	unsigned done = 0;

	/* elf_open() found every section's bytes in the file */
	if (!m || m->type != SHT_PROGBITS || !arch->rmc->xray_return_site)
		return 0;
	for (uint64_t at = 0; at + XRAY_ENTRY_SIZE <= m->size; at += XRAY_ENTRY_SIZE)
		done += rewrite_image_sled(f, arch, m, at, out);
	return done;
}
