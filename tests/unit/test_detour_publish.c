// SPDX-License-Identifier: GPL-2.0
/*
 * The plan handed to the runtime (src/detour/publish.c): for every
 * function of a few x86_64 images and Debian's aarch64 libc, the copy in
 * the detour file, moved as the runtime moves it (each field it names
 * re-aimed: a rel32 made smaller by the distance, a B or ADRP word
 * re-encoded), must be byte for byte what the relocator makes for the
 * new address itself, near and far, before and after (aarch64: after,
 * beyond the 1 MB a CBZ reaches, as stubs are, within the 128 MB of a B).  That
 * is what the offsets found by comparing two copies promise.  And the
 * program's entry point has no plan.
 */
#include "unit.h"
#include "../../src/detour/detour.h"
#include "../../src/sites/detourfile.h"
#include "../../src/sites/sitefile.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int64_t x86_moves[] = { 0x10, 0x7654321, -0x1234567, 0x40000000, 0 };
/* (After only: a library linked at 0 has nothing 1 MB before it.) */
static const int64_t a64_moves[] = { 0x7654320, 0x1234568, 0x2000000, 0 };

/* The entry's copy moved by d as the runtime would (core/detours.c). */
static void move(const struct detour_arch *a, const struct detourfile_entry *e, int64_t d,
		 uint8_t *out)
{
	memcpy(out, e->copy, e->copy_len);
	for (unsigned i = 0; i < e->nr_relocs; i++) {
		uint64_t at = e->patch + e->relocs[i];

		a->reaim(out + e->relocs[i], at, at + d);
	}
}

/* How many entries' moved copies differ from the relocator's. */
static unsigned differ(struct detour_dec *d, const struct elf_file *f,
		       const struct detourfile *df)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < df->nr; i++) {
		const struct detourfile_entry *e = &df->v[i];
		const uint8_t *code = elf_vaddr_ptr(f, e->patch, e->len);

		const int64_t *moves = d->arch->machine == EM_AARCH64 ? a64_moves : x86_moves;

		for (unsigned m = 0; code && moves[m]; m++) {
			uint8_t want[DETOUR_MAX_COPY], got[DETOUR_MAX_COPY];
			int n = detour_copy(d, code, e->patch, e->len, e->patch + moves[m], want,
					    sizeof(want));

			move(d->arch, e, moves[m], got);
			if (n > 0 && (n != e->copy_len || memcmp(want, got, n))) {
				if (!bad)
					printf("# %s moved by %#llx differs\n", e->name,
					       (unsigned long long)moves[m]);
				bad++;
			}
		}
	}
	return bad;
}

static int has(const struct detourfile *df, const char *name)
{
	for (unsigned i = 0; i < df->nr; i++)
		if (!strcmp(df->v[i].name, name))
			return 1;
	return 0;
}

static void image(const char *what, const char *path, const char *arch, unsigned machine,
		  unsigned at_least)
{
	struct detour_plans plans;
	struct detourfile df = { 0 };
	struct detour_dec d;
	struct elf_file f;
	char err[256], id[SITEFILE_MAX_ID], *file = NULL;
	int ok;

	if (elf_open_path(&f, path)) {
		CHECK(what, 0);
		return;
	}
	ok = detour_publish(&f, &plans, err, sizeof(err)) == 0;
	CHECK(what, ok);
	if (ok && elf_build_id(&f, id, sizeof(id)) && (file = sitefile_cache_path(id, "detours")))
		ok = detourfile_read(file, arch, id, &df, err, sizeof(err)) == 1;
	printf("# %s: %u functions planned\n", what, df.nr);
	CHECK("... its plan read back, every function that can be patched",
	      ok && df.nr >= at_least && df.nr <= plans.ok);
	if (ok && detour_open(&d, machine) == 0) {
		CHECK("... every copy moved as the runtime moves it is the relocator's",
		      differ(&d, &f, &df) == 0);
		detour_close(&d);
	}
	if (!strcmp(path, "/proc/self/exe"))
		CHECK("... the entry point left out, main planned",
		      !has(&df, "_start") && has(&df, "main"));
	if (ok)
		detour_plans_free(&plans);
	detourfile_free(&df);
	free(file);
	elf_close(&f);
}

int main(void)
{
	char dir[] = "/tmp/fntrace-unit-XXXXXX", path[64];

	if (!mkdtemp(dir))
		return 1;
	setenv("FNTRACE_CACHE", dir, 1);
	image("this program", "/proc/self/exe", "x86_64", EM_X86_64, 20);
	image("Debian's libz", "/lib/x86_64-linux-gnu/libz.so.1", "x86_64", EM_X86_64, 80);
	image("Debian's libc", "/lib/x86_64-linux-gnu/libc.so.6", "x86_64", EM_X86_64, 2000);
	image("Debian's aarch64 libc", "/usr/aarch64-linux-gnu/lib/libc.so.6", "aarch64",
	      EM_AARCH64, 2000);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		return 1;
	return unit_done();
}
