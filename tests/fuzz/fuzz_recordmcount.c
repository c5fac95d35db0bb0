// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the ELF reader, recordmcount's checks, the site finder
 * and the table writer, all in memory, on whatever bytes the fuzzer makes.
 * Besides "no crash, no sanitizer report", the new object must itself be
 * accepted, hold __mcount_loc, and (without --nop) give the same sites
 * again; with --nop, none.  The last input byte chooses --nop.
 */
#include "../../src/recordmcount/rmc.h"

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
		sink = rmc_func_at(fs, s->v[i].sec, s->v[i].off);
	(void)sink;
	rmc_funcs_free(fs);
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
	elf_close(&f);
	return 0;
}
