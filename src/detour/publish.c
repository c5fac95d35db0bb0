// SPDX-License-Identifier: GPL-2.0
/*
 * The plan handed to the runtime: for every function whose entry can be
 * replaced, its detour file line (sites/detourfile.h), in the trace cache
 * under the image's build-id, where the runtime looks when it maps the
 * image (core/detours.c).  Planning stays here, where capstone is: the
 * traced process gets bytes and the offsets of the fields it re-aims for
 * its own trampoline's address.
 *
 * Those offsets are found by relocating each copy twice, for a
 * trampoline at the patch address and one byte further: on x86_64 every
 * field the relocator writes is a rel32 or a disp32, "a target minus an
 * address in the copy", so each one, and nothing else, is one smaller in
 * the second copy, and its lowest byte always differs.
 */
#include "detour.h"
#include "../sites/detourfile.h"
#include "../sites/sitefile.h"

#include <elf.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* The fields of a copy that moved with it: where a and b (one byte
 * further) differ, each 4 bytes from its first differing byte. */
static int find_relocs(const uint8_t *a, const uint8_t *b, unsigned n,
		       struct detourfile_entry *e)
{
	e->nr_relocs = 0;
	for (unsigned i = 0; i < n; i++) {
		int32_t x, y;

		if (a[i] == b[i])
			continue;
		if (i + 4 > n || e->nr_relocs == DETOUR_MAX_RELOCS)
			return -1;
		memcpy(&x, a + i, 4);
		memcpy(&y, b + i, 4);
		if (x - 1 != y)
			return -1;
		e->relocs[e->nr_relocs++] = (uint8_t)i;
		i += 3;
	}
	return 0;
}

/* One function's line; -1 if its copy cannot be made (left out). */
static int make_entry(struct detour_dec *d, const struct elf_file *f,
		      const struct detour_plan *p, struct detourfile_entry *e)
{
	const uint8_t *code = elf_vaddr_ptr(f, p->patch, p->len);
	uint8_t other[DETOUR_MAX_COPY];
	int n, m;

	if (!code || p->len > DETOUR_MAX_LEN)
		return -1;
	n = detour_copy(d, code, p->patch, p->len, p->patch, e->copy, sizeof(e->copy));
	m = detour_copy(d, code, p->patch, p->len, p->patch + 1, other, sizeof(other));
	if (n <= 0 || m != n || find_relocs(e->copy, other, (unsigned)n, e))
		return -1;
	e->patch = p->patch;
	e->func = p->func;
	e->len = p->len;
	e->copy_len = (uint8_t)n;
	memcpy(e->orig, code, p->len);
	e->name = p->name;
	return 0;
}

/* The program's entry point (_start) is jumped to by the kernel, its
 * stack holding argc where a call leaves the return address, which the
 * tracers would take, and the graph tracer replace. */
static int is_entry_point(const struct elf_file *f, const struct detour_plan *p)
{
	uint64_t entry = f->is64 ? elf_u64(f, f->data + 24) : elf_u32(f, f->data + 24);

	return entry && entry >= p->func && entry < p->func + (p->size ? p->size : 1);
}

static int write_plans(const struct elf_file *f, const struct detour_plans *plans,
		       char *err, size_t errlen)
{
	struct detourfile_entry *v = calloc(plans->ok + 1, sizeof(*v));
	char id[SITEFILE_MAX_ID], *path = NULL;
	struct detour_dec d;
	unsigned n = 0;
	int ret = -1;

	if (!v || detour_open(&d, f->machine)) {
		free(v);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < plans->nr; i++)
		if (plans->v[i].refusal == DETOUR_OK && !is_entry_point(f, &plans->v[i]) &&
		    make_entry(&d, f, &plans->v[i], &v[n]) == 0)
			n++;
	if (!elf_build_id(f, id, sizeof(id)) || !(path = sitefile_cache_path(id, "detours")))
		snprintf(err, errlen, "no build-id, or no cache directory, to keep its plan in");
	else
		ret = detourfile_write(path, arch_lookup(f->machine)->name, id, v, n, err, errlen);
	detour_close(&d);
	free(path);
	free(v);
	return ret;
}

int detour_publish(const struct elf_file *f, struct detour_plans *plans, char *err,
		   size_t errlen)
{
	if (f->machine != EM_X86_64) {
		snprintf(err, errlen, "the runtime has no detours on this architecture");
		return -1;
	}
	if (detour_plan_image(f, plans, err, errlen))
		return -1;
	if (write_plans(f, plans, err, errlen)) {
		detour_plans_free(plans);
		return -1;
	}
	return 0;
}

int detour_plan_cached(const struct elf_file *f)
{
	char id[SITEFILE_MAX_ID], *path;
	int there;

	if (!elf_build_id(f, id, sizeof(id)) || !(path = sitefile_cache_path(id, "detours")))
		return 0;
	there = access(path, R_OK) == 0;
	free(path);
	return there;
}
