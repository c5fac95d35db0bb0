// SPDX-License-Identifier: GPL-2.0
/*
 * Is this object one recordmcount can process?  Everything the finder and
 * the writer will read is checked here first, so that a bad file gets one
 * clear message and is never written: the ELF reader already checked the
 * header, the section table and section bounds; this adds what only a
 * relocatable object must satisfy.
 */
#include "rmc.h"

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* An executable section with contents: where sites can be. */
static int rmc_is_text(const struct elf_file *f, unsigned sec)
{
	return sec > 0 && sec < f->shnum && (f->sections[sec].flags & SHF_EXECINSTR) &&
	       f->sections[sec].type == SHT_PROGBITS;
}

/* What the offsets of the relocations of section sec count from: 0 in an
 * object, the section's address in an image. */
static uint64_t rel_base(const struct elf_file *f, unsigned sec)
{
	return f->type == ET_REL || sec >= f->shnum ? 0 : f->sections[sec].addr;
}

int rmc_rel_get(const struct elf_file *f, unsigned relsec, unsigned i, struct elf_rel *r)
{
	if (elf_rel_get(f, relsec, i, r))
		return -1;
	r->offset -= rel_base(f, f->sections[relsec].info);
	return 0;
}

/* An image's allocated relocation sections are the dynamic ones (.rela.dyn,
 * .rela.plt): their offsets are GOT slots, not code.  Those ld -q keeps
 * for the code are not allocated. */
int rmc_is_code_relsec(const struct elf_file *f, unsigned sec)
{
	const struct elf_section *s = &f->sections[sec];

	if (s->type != SHT_REL && s->type != SHT_RELA)
		return 0;
	if (f->type != ET_REL && (s->flags & SHF_ALLOC))
		return 0;
	return rmc_is_text(f, s->info);
}

/* What objects and images must both satisfy: a supported arch and class. */
static int check_machine(const struct elf_file *f, const struct arch_desc **arch,
			 char *err, size_t errlen)
{
	if (f->shnum == 0 && f->shoff != 0)
		return fail(err, errlen, "extended section numbering (65280 sections "
			    "or more) is not supported");
	*arch = arch_lookup(f->machine);
	if (!*arch || !(*arch)->rmc)
		return fail(err, errlen, "unsupported architecture (ELF machine %u)",
			    f->machine);
	if ((*arch)->rmc->word_size != elf_word_size(f))
		return fail(err, errlen, "%s objects must be ELF%u, this one is ELF%u",
			    (*arch)->name, 8 * (*arch)->rmc->word_size,
			    8 * elf_word_size(f));
	return 0;
}

static int check_header(const struct elf_file *f, const struct arch_desc **arch,
			char *err, size_t errlen)
{
	if (f->type != ET_REL)
		return fail(err, errlen, "not a relocatable object (ELF type %u)", f->type);
	return check_machine(f, arch, err, errlen);
}

/* Every symbol's name and section index, so that later lookups can trust them. */
static int check_symbols(const struct elf_file *f, unsigned symtab,
			 char *err, size_t errlen)
{
	const struct elf_section *s = &f->sections[symtab];
	unsigned n = elf_sym_count(f, symtab);
	unsigned esz = f->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);

	if (s->size % esz)
		return fail(err, errlen, "symbol table size %llu is not a multiple of %u",
			    (unsigned long long)s->size, esz);
	if (f->sections[s->link].type != SHT_STRTAB || f->sections[s->link].size == 0 ||
	    f->data[f->sections[s->link].offset + f->sections[s->link].size - 1])
		return fail(err, errlen, "symbol table links to section %u, "
			    "not a string table", s->link);
	for (unsigned i = 1; i < n; i++) {
		const uint8_t *p = f->data + s->offset + (uint64_t)i * esz;
		uint32_t name = elf_u32(f, p);
		struct elf_sym sym;

		elf_sym_get(f, symtab, i, &sym);
		if (name >= f->sections[s->link].size)
			return fail(err, errlen, "symbol %u has a bad name offset %u", i, name);
		if (sym.shndx == SHN_XINDEX)
			return fail(err, errlen, "extended symbol section indices "
				    "are not supported");
		if (sym.shndx >= f->shnum && sym.shndx < SHN_LORESERVE)
			return fail(err, errlen, "symbol %u is in bad section %u", i, sym.shndx);
	}
	return 0;
}

static int find_symtab(const struct elf_file *f, unsigned *symtab,
		       char *err, size_t errlen)
{
	*symtab = 0;
	for (unsigned i = 1; i < f->shnum; i++) {
		if (f->sections[i].type != SHT_SYMTAB)
			continue;
		if (*symtab)
			return fail(err, errlen, "more than one symbol table");
		*symtab = i;
	}
	return *symtab ? check_symbols(f, *symtab, err, errlen) : 0;
}

static int check_one_rel(const struct elf_file *f, unsigned relsec, unsigned i,
			 unsigned nsyms, char *err, size_t errlen)
{
	const struct elf_section *target = &f->sections[f->sections[relsec].info];
	struct elf_rel r;

	rmc_rel_get(f, relsec, i, &r);
	if (r.sym >= nsyms)
		return fail(err, errlen, "relocation %u of section %u names bad symbol %u",
			    i, relsec, r.sym);
	if (r.offset >= target->size)
		return fail(err, errlen, "relocation %u of section %u is outside its "
			    "section (offset 0x%llx, size 0x%llx)", i, relsec,
			    (unsigned long long)r.offset, (unsigned long long)target->size);
	return 0;
}

/* A relocation section that applies to executable code. */
static int check_relsec(const struct elf_file *f, const struct arch_desc *arch,
			unsigned relsec, unsigned symtab, char *err, size_t errlen)
{
	const struct elf_section *s = &f->sections[relsec];
	int rela = s->type == SHT_RELA;
	unsigned n = elf_rel_count(f, relsec);

	if (rela != arch->rmc->rela)
		return fail(err, errlen, "section %u is %s, %s objects use %s", relsec,
			    rela ? "SHT_RELA" : "SHT_REL", arch->name,
			    arch->rmc->rela ? "SHT_RELA" : "SHT_REL");
	if (s->size % elf_rel_size(f, rela))
		return fail(err, errlen, "relocation section %u has a partial entry", relsec);
	if (!symtab || s->link != symtab)
		return fail(err, errlen, "relocation section %u does not link to the "
			    "symbol table", relsec);
	for (unsigned i = 0; i < n; i++)
		if (check_one_rel(f, relsec, i, elf_sym_count(f, symtab), err, errlen))
			return -1;
	return 0;
}

/* Group members must be real sections: the writer adds to the group. */
static int check_group(const struct elf_file *f, unsigned sec, char *err, size_t errlen)
{
	const struct elf_section *s = &f->sections[sec];
	const uint8_t *p = f->data + s->offset;

	if (s->size < 4 || s->size % 4)
		return fail(err, errlen, "section group %u has a bad size", sec);
	for (uint64_t off = 4; off < s->size; off += 4) {
		uint32_t m = elf_u32(f, p + off);

		if (m == 0 || m >= f->shnum)
			return fail(err, errlen, "section group %u lists bad section %u", sec, m);
	}
	return 0;
}

static int check_sections(const struct elf_file *f, const struct arch_desc *arch,
			  unsigned symtab, char *err, size_t errlen)
{
	for (unsigned i = 1; i < f->shnum; i++) {
		const struct elf_section *s = &f->sections[i];

		if (s->type == SHT_GROUP && check_group(f, i, err, errlen))
			return -1;
		if (s->type != SHT_REL && s->type != SHT_RELA)
			continue;
		if (s->info >= f->shnum)
			return fail(err, errlen, "relocation section %u applies to bad "
				    "section %u", i, s->info);
		if (rmc_is_code_relsec(f, i) && check_relsec(f, arch, i, symtab, err, errlen))
			return -1;
	}
	return 0;
}

int rmc_check(const struct elf_file *f, const struct arch_desc **arch,
	      char *err, size_t errlen)
{
	unsigned symtab;

	/* Overlaps first: --nop writes into text and relocation sections. */
	if (check_header(f, arch, err, errlen) || elf_check_overlaps(f, err, errlen))
		return -1;
	return find_symtab(f, &symtab, err, errlen) ||
	       check_sections(f, *arch, symtab, err, errlen) ? -1 : 0;
}

/*
 * A final image: only read, never written, so its sections may overlap
 * as the linker likes (.tbss); the relocations ld -q kept for its code
 * get the checks an object's get.  *relocs: whether there are any.
 */
int rmc_check_image(const struct elf_file *f, const struct arch_desc **arch,
		    int *relocs, char *err, size_t errlen)
{
	unsigned symtab;

	if (f->type != ET_EXEC && f->type != ET_DYN)
		return fail(err, errlen, "not an executable or shared object (ELF type %u)",
			    f->type);
	if (check_machine(f, arch, err, errlen) || find_symtab(f, &symtab, err, errlen) ||
	    check_sections(f, *arch, symtab, err, errlen))
		return -1;
	*relocs = 0;
	for (unsigned i = 1; i < f->shnum; i++)
		*relocs |= rmc_is_code_relsec(f, i);
	return 0;
}
