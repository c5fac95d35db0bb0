// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the ELF reader, recordmcount's checks, the site finder
 * and the table writer, all in memory, on whatever bytes the fuzzer makes;
 * and for linked images, the final-image mode (--image) and site decoding.
 * Besides "no crash, no sanitizer report", the new object must itself be
 * accepted, hold __mcount_loc, and (without --nop) give the same sites
 * again; with --nop, none.  The last input byte chooses --nop.
 */
#include "../../src/recordmcount/rmc.h"
#include "../../src/sites/functable.h"
#include "../../src/sites/sites.h"

#include <stdlib.h>

static void must(int cond)
{
	if (!cond)
		abort();
}

/* The object rmc_build() made must pass everything the original did. */
static void recheck(const struct rmc_output *out, unsigned nr, int nop)
{
	const struct arch_desc *arch;
	struct rmc_sites s;
	struct elf_file g;
	char err[RMC_ERR];

	must(elf_open_mem(&g, out->data, out->size) == 0);
	must(elf_find_section(&g, "__mcount_loc") > 0);
	must(rmc_check(&g, &arch, err, sizeof(err)) == 0);
	must(rmc_find(&g, arch, nop, &s, err, sizeof(err)) == 0);
	must(s.nr == (nop ? 0 : nr));
	rmc_sites_free(&s);
	elf_close(&g);
}

static void list_all(const struct elf_file *f, const struct rmc_sites *s)
{
	struct rmc_funcs *fs = rmc_funcs_new(f, s->symtab);
	volatile const char *sink;

	for (unsigned i = 0; fs && i < s->nr; i++)
		sink = rmc_func_at(fs, s->v[i].sec, s->v[i].off, NULL);
	(void)sink;
	rmc_funcs_free(fs);
}

/* The __fntrace_funcs pieces of a linked image, as the runtime reads them. */
static void functable(const struct elf_file *f, const struct arch_desc *arch)
{
	struct image_sites sites = { .arch = arch };
	int loc = elf_find_section(f, "__mcount_loc");

	if (loc > 0 && functable_sites(f, loc, &sites) > 0)
		sites_free(&sites);
}

/* A linked image: the final-image mode's checks and finder, the checks
 * of what it finds, the search of every function's head and its
 * __fntrace_funcs.  (Not
 * sites_discover(): it would read side files from the cache.) */
static void image(const struct elf_file *f)
{
	const struct arch_desc *arch;
	struct image_sites sites;
	struct rmc_sites s;
	char err[RMC_ERR];
	uint64_t *addrs;
	int relocs;

	if (rmc_check_image(f, &arch, &relocs, err, sizeof(err)))
		return;
	if (relocs && !rmc_find_image(f, arch, &s, err, sizeof(err))) {
		addrs = malloc((s.nr + 1) * sizeof(*addrs));
		for (unsigned i = 0; addrs && i < s.nr; i++)
			addrs[i] = f->sections[s.v[i].sec].addr + s.v[i].off;
		if (addrs && !sites_from_addrs(f, addrs, s.nr, &sites, err, sizeof(err)))
			sites_free(&sites);
		free(addrs);
		rmc_sites_free(&s);
	}
	if (!sites_scan(f, &sites, err, sizeof(err)))
		sites_free(&sites);
	functable(f, arch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int nop = size && (data[size - 1] & 1);
	const struct arch_desc *arch;
	struct rmc_output out;
	struct rmc_sites s;
	struct elf_file f;
	char err[RMC_ERR];

	if (elf_open_mem(&f, data, size))
		return 0;
	if (!rmc_check(&f, &arch, err, sizeof(err)) &&
	    !rmc_find(&f, arch, nop, &s, err, sizeof(err))) {
		list_all(&f, &s);
		if (s.nr && elf_find_section(&f, "__mcount_loc") < 0 &&
		    !rmc_build(&f, &s, nop, &out, err, sizeof(err))) {
			recheck(&out, s.nr, nop);
			rmc_output_free(&out);
		}
		rmc_sites_free(&s);
	}
	image(&f);
	elf_close(&f);
	return 0;
}
