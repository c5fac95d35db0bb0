// SPDX-License-Identifier: GPL-2.0
/*
 * The plan handed to the runtime: for every function whose entry can be
 * replaced, its detour file line (sites/detourfile.h), in the trace cache
 * under the image's build-id, where the runtime looks when it maps the
 * image (core/detours.c).  Planning stays here, where capstone is: the
 * traced process gets bytes and the offsets of the fields it re-aims for
 * its own trampoline's address.
 *
 * Those offsets are found by relocating each copy twice, a step apart
 * (arch's plan_step): every field the relocator writes depends on where
 * the copy runs ("a target minus an address in the copy": x86_64's rel32
 * and disp32, aarch64's B, BL and ADRP words), and nothing else does, so
 * the fields are where the two differ, each one the other re-aimed.  A
 * third copy, of the image moved by the step with its trampoline, must be
 * the first: one that holds an absolute address (aarch64's literal of
 * ADR or LDR out of reach) cannot be re-aimed, and is left out.  The copy
 * is planned plan_far from the entry, in the forms that reach from any
 * stub, and its fields then re-aimed as if it ran at the entry.
 */
#include "detour.h"
#include "../sites/detourfile.h"
#include "../sites/sitefile.h"

#include <elf.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* The fields of copy a (planned at "at") that moved with it: where a
 * and b (planned a step further) differ, each 4 bytes from its first
 * differing byte (the instruction's, where their length is fixed). */
static int find_relocs(const struct detour_arch *arch, const uint8_t *a, const uint8_t *b,
		       unsigned n, uint64_t at, struct detourfile_entry *e)
{
	e->nr_relocs = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned f = arch->fixed_len ? i & ~(arch->fixed_len - 1) : i;
		uint8_t field[4];

		if (a[i] == b[i])
			continue;
		if (f + 4 > n || e->nr_relocs == DETOUR_MAX_RELOCS)
			return -1;
		memcpy(field, a + f, 4);
		if (arch->reaim(field, at + f, at + arch->plan_step + f) || memcmp(field, b + f, 4))
			return -1;
		e->relocs[e->nr_relocs++] = (uint8_t)f;
		i = f + 3;
	}
	return 0;
}

/* The copy planned at "at" made as if it ran at the entry. */
static int reaim_to_entry(const struct detour_arch *arch, struct detourfile_entry *e,
			  uint64_t at)
{
	for (unsigned i = 0; i < e->nr_relocs; i++)
		if (arch->reaim(e->copy + e->relocs[i], at + e->relocs[i], e->patch + e->relocs[i]))
			return -1;
	return 0;
}

/* One function's line; -1 if its copy cannot be made (left out). */
static int make_entry(struct detour_dec *d, const struct elf_file *f,
		      const struct detour_plan *p, struct detourfile_entry *e)
{
	const struct detour_arch *arch = d->arch;
	const uint8_t *code = elf_vaddr_ptr(f, p->patch, p->len);
	uint64_t at = p->patch + arch->plan_far, step = arch->plan_step;
	uint8_t other[DETOUR_MAX_COPY], moved[DETOUR_MAX_COPY];
	int n, m, k;

	if (!code || p->len > DETOUR_MAX_LEN)
		return -1;
	n = detour_copy(d, code, p->patch, p->len, at, e->copy, sizeof(e->copy));
	m = detour_copy(d, code, p->patch, p->len, at + step, other, sizeof(other));
	k = detour_copy(d, code, p->patch + step, p->len, at + step, moved, sizeof(moved));
	e->patch = p->patch;
	if (n <= 0 || m != n || k != n || memcmp(e->copy, moved, n) ||
	    find_relocs(arch, e->copy, other, (unsigned)n, at, e) || reaim_to_entry(arch, e, at))
		return -1;
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

/* A plan to write: every function, or only the one named. */
static int wanted(const struct elf_file *f, const struct detour_plan *p, const char *only)
{
	return p->refusal == DETOUR_OK && !is_entry_point(f, p) &&
	       (!only || !strcmp(p->name, only));
}

static int write_plans(const struct elf_file *f, const struct detour_plans *plans,
		       const char *only, char *err, size_t errlen)
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
		if (wanted(f, &plans->v[i], only) && make_entry(&d, f, &plans->v[i], &v[n]) == 0)
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
	if (!detour_live(f->machine)) {
		snprintf(err, errlen, "the runtime has no detours on this architecture");
		return -1;
	}
	if (detour_plan_image(f, plans, err, errlen))
		return -1;
	if (write_plans(f, plans, NULL, err, errlen)) {
		detour_plans_free(plans);
		return -1;
	}
	return 0;
}

int detour_publish_one(const struct elf_file *f, const char *name, char *err,
		       size_t errlen)
{
	struct detour_plans plans;
	int ret;

	if (!detour_live(f->machine)) {
		snprintf(err, errlen, "the runtime has no detours on this architecture");
		return -1;
	}
	if (detour_plan_image(f, &plans, err, errlen))
		return -1;
	ret = write_plans(f, &plans, name, err, errlen);
	detour_plans_free(&plans);
	return ret;
}

int detour_live(unsigned machine)
{
	const struct detour_arch *a = detour_arch_lookup(machine);

	return a && a->reaim;
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
