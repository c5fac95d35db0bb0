// SPDX-License-Identifier: GPL-2.0
/*
 * Sanitizer runtimes first in LD_PRELOAD (see sanitizer.h).  Plain string
 * work into the caller's buffer: the runtime composes a value between
 * vfork() and exec, where nothing may be allocated.
 */
#include "sanitizer.h"
#include "../elf/elf.h"

#include <string.h>

/* The shared runtimes that interpose libc and must be found first, by
 * the start of their file names (libasan.so.8, libclang_rt.asan-x86_64.so).
 * UBSan's interposes nothing and may come anywhere. */
static const char *const first_runtimes[] = {
	"libasan.so", "libtsan.so", "liblsan.so", "libhwasan.so",
	"libclang_rt.asan", "libclang_rt.tsan", "libclang_rt.hwasan",
	"libclang_rt.memprof",
};

static const char *file_name(const char *path, size_t len)
{
	const char *slash = memrchr(path, '/', len);

	return slash ? slash + 1 : path;
}

/* Is the entry of len bytes (a name or a path) one of them? */
static int is_runtime(const char *entry, size_t len)
{
	const char *name = file_name(entry, len);
	size_t n = len - (size_t)(name - entry);

	for (size_t i = 0; i < sizeof(first_runtimes) / sizeof(first_runtimes[0]); i++) {
		size_t p = strlen(first_runtimes[i]);

		if (n >= p && !memcmp(name, first_runtimes[i], p))
			return 1;
	}
	return 0;
}

/* Is this library (a file name or a path) a sanitizer runtime that must
 * come first? */
static int san_runtime_named(const char *name)
{
	return is_runtime(name, strlen(name));
}

int san_runtime_needed(const char *path, char *out, size_t len)
{
	return elf_needed_find(path, san_runtime_named, out, len);
}

/* The next entry of an LD_PRELOAD list (the loader splits at spaces and
 * colons) at *p, its length in *len; NULL at the end. */
static const char *next_entry(const char **p, size_t *len)
{
	const char *s = *p + strspn(*p, ": ");

	*len = strcspn(s, ": ");
	*p = s + *len;
	return *len ? s : NULL;
}

static int same_file(const char *entry, size_t len, const char *name)
{
	const char *a = file_name(entry, len), *b = file_name(name, strlen(name));
	size_t n = len - (size_t)(a - entry);

	return n == strlen(b) && !memcmp(a, b, n);
}

int san_preload_has(const char *list, const char *name)
{
	const char *e;
	size_t len;

	while (list && (e = next_entry(&list, &len)))
		if (same_file(e, len, name))
			return 1;
	return 0;
}

struct out {
	char *buf;
	size_t len, used;
	int full;
};

static void append(struct out *o, const char *s, size_t n)
{
	if (o->full || o->used + !!o->used + n >= o->len) {
		o->full = 1;
		return;
	}
	if (o->used)
		o->buf[o->used++] = ':';
	memcpy(o->buf + o->used, s, n);
	o->used += n;
	o->buf[o->used] = '\0';
}

/* old's entries that are sanitizer runtimes (runtimes 1) or not (0). */
static void append_entries(struct out *o, const char *old, int runtimes)
{
	const char *e;
	size_t len;

	while (old && (e = next_entry(&old, &len)))
		if (is_runtime(e, len) == runtimes)
			append(o, e, len);
}

int san_preload(char *out, size_t len, const char *san, const char *lib, const char *old)
{
	struct out o = { out, len, 0, len == 0 };
	int added = san && !san_preload_has(old, san);

	if (len)
		out[0] = '\0';
	if (added)
		append(&o, san, strlen(san));
	append_entries(&o, old, 1);
	if (lib)
		append(&o, lib, strlen(lib));
	append_entries(&o, old, 0);
	return o.full ? -1 : added;
}

int san_preload_drop(char *out, size_t len, const char *old, const char *entry)
{
	struct out o = { out, len, 0, len == 0 };
	int dropped = 0;
	const char *e;
	size_t n;

	if (len)
		out[0] = '\0';
	while (old && (e = next_entry(&old, &n))) {
		if (!dropped && n == strlen(entry) && !memcmp(e, entry, n))
			dropped = 1;
		else
			append(&o, e, n);
	}
	return o.full ? -1 : 0;
}
