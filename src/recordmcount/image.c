// SPDX-License-Identifier: GPL-2.0
/*
 * recordmcount --image EXE_OR_SO: the call sites of a linked image, taken
 * after the final link, when nothing will move any more (the "ld -q"
 * idea of LKML's "ftrace: to kill a daemon", 2008, and of "ftrace:
 * Proposal for an Alternative RecordMcount framework", 2018, against
 * RISC-V's linker relaxation):
 *
 *  - linked with --emit-relocs (-Wl,-q), the relocations ld kept for the
 *    code give every call to mcount at its final address, whatever the
 *    linker did to it (a relaxed riscv "jal", x86's "67 e8");
 *  - otherwise the head of every function is decoded for its call to
 *    mcount, directly or through its PLT stub or GOT slot.
 *
 * Either way each site then goes through the arch's check_site(), as the
 * runtime will, and the result is the image's side file (sitefile.h) in
 * the trace cache, or with --list a listing.
 */
#include "rmc.h"
#include "../sites/sitefile.h"
#include "../sites/sites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The link-time addresses of the calls the kept relocations name. */
static int reloc_addrs(const struct elf_file *f, const struct arch_desc *arch,
		       uint64_t **addrs, unsigned *n, char *err, size_t errlen)
{
	struct rmc_sites rs;

	if (rmc_find_image(f, arch, &rs, err, errlen))
		return -1;
	*n = rs.nr;
	*addrs = malloc((rs.nr ? rs.nr : 1) * sizeof(**addrs));
	for (unsigned i = 0; *addrs && i < rs.nr; i++)
		(*addrs)[i] = f->sections[rs.v[i].sec].addr + rs.v[i].off;
	rmc_sites_free(&rs);
	if (!*addrs)
		snprintf(err, errlen, "out of memory");
	return *addrs ? 0 : -1;
}

static int image_sites(const struct elf_file *f, struct image_sites *out,
		       char *err, size_t errlen)
{
	const struct arch_desc *arch;
	uint64_t *addrs;
	unsigned n;
	int relocs, ret;

	if (rmc_check_image(f, &arch, &relocs, err, errlen))
		return -1;
	if (!relocs)
		return sites_scan(f, out, err, errlen);
	if (reloc_addrs(f, arch, &addrs, &n, err, errlen))
		return -1;
	ret = sites_from_addrs(f, addrs, n, out, err, errlen);
	free(addrs);
	return ret;
}

static void list_sites(const char *path, const struct image_sites *s, int many)
{
	for (unsigned i = 0; i < s->nr; i++)
		printf("%s%s%#llx %s\n", many ? path : "", many ? ": " : "",
		       (unsigned long long)s->v[i].addr, s->v[i].name);
}

static int write_side_file(const char *path, const struct elf_file *f,
			   const struct image_sites *s)
{
	char id[SITEFILE_MAX_ID], err[RMC_ERR + 300], *side;
	int ret;

	if (!elf_build_id(f, id, sizeof(id)))
		return rmc_file_error(path, "has no build-id to name its side file by "
				   "(link with -Wl,--build-id)");
	side = sitefile_path(id);
	if (!side)
		return rmc_file_error(path, "no cache directory for the side file: set "
				   "FNTRACE_CACHE, XDG_CACHE_HOME or HOME");
	ret = sitefile_write(side, s->arch->name, id, s->v, s->nr, err, sizeof(err));
	free(side);
	return ret ? rmc_file_error(path, err) : 0;
}

int rmc_image(const char *path, int list, int many)
{
	struct image_sites s;
	struct elf_file f;
	char err[RMC_ERR];
	int ret = 0;

	if (elf_open_path(&f, path)) {
		fprintf(stderr, PROG ": %s\n", f.err);
		return 1;
	}
	if (image_sites(&f, &s, err, sizeof(err))) {
		elf_close(&f);
		return rmc_file_error(path, err);
	}
	if (s.skipped)
		fprintf(stderr, PROG ": %s: warning: %u call%s to mcount neither at a "
			"function's entry nor after its frame set-up: left out\n",
			path, s.skipped, s.skipped == 1 ? "" : "s");
	if (list)
		list_sites(path, &s, many);
	else if (s.nr == 0)
		fprintf(stderr, PROG ": %s: no calls to mcount (%s): no side file written\n",
			path, elf_find_section(&f, "__mcount_loc") > 0 ?
			"its __mcount_loc lists them, made nops per object" :
			"not built with -pg?");
	else
		ret = write_side_file(path, &f, &s);
	sites_free(&s);
	elf_close(&f);
	return ret;
}
