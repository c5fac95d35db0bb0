// SPDX-License-Identifier: GPL-2.0
/*
 * Writing into text.  Two passes, as the kernel's ftrace_replace_code():
 * first every site's current bytes are compared with what the caller
 * believes is there, and only if all match is anything written.  Text is
 * writable only while it is being written.
 */
#include "ftrace.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uintptr_t page_size(void)
{
	static uintptr_t size;

	if (!size)
		size = (uintptr_t)sysconf(_SC_PAGESIZE);
	return size;
}

static int by_address(const void *a, const void *b)
{
	const struct text_patch *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int verify_all(const struct text_patch *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (memcmp((const void *)v[i].addr, v[i].old, v[i].len) != 0) {
			ft_warn("unexpected bytes at %#lx: not patching",
				(unsigned long)v[i].addr);
			return -1;
		}
	return 0;
}

static int set_prot(uintptr_t lo, uintptr_t hi, int prot)
{
	uintptr_t ps = page_size();

	lo &= ~(ps - 1);
	hi = (hi + ps - 1) & ~(ps - 1);
	return mprotect((void *)lo, hi - lo, prot);
}

/* Write the sites of v[0..n) that share a run of pages, then seal it. */
static int write_run(const struct text_patch *v, unsigned n)
{
	uintptr_t lo = v[0].addr, hi = v[n - 1].addr + v[n - 1].len;

	if (set_prot(lo, hi, PROT_READ | PROT_WRITE | PROT_EXEC))
		return -1;
	for (unsigned i = 0; i < n; i++)
		memcpy((void *)v[i].addr, v[i].new, v[i].len);
	__builtin___clear_cache((char *)lo, (char *)hi);
	return set_prot(lo, hi, PROT_READ | PROT_EXEC);
}

int text_patch_batch(struct text_patch *v, unsigned n)
{
	uintptr_t ps = page_size();
	unsigned start = 0;

	if (n == 0)
		return 0;
	if (verify_all(v, n))
		return -1;
	qsort(v, n, sizeof(*v), by_address);
	/* Group sites on the same or adjacent pages: one mprotect pair per run. */
	for (unsigned i = 1; i <= n; i++) {
		if (i < n && (v[i].addr & ~(ps - 1)) <=
			     ((v[i - 1].addr + v[i - 1].len - 1) & ~(ps - 1)) + ps)
			continue;
		if (write_run(v + start, i - start)) {
			ft_warn("cannot write text at %#lx", (unsigned long)v[start].addr);
			return -1;
		}
		start = i;
	}
	return 0;
}
