// SPDX-License-Identifier: GPL-2.0
/*
 * Large arrays filled as soon as they are had: the runtime's record hash
 * and batches of patches, a large image's sites, symbols and return sites
 * (megabytes each for 100 000 functions).  Page by page, each first touch
 * is a fault, and under a hypervisor a fault costs more than the page's
 * use: on a 2-core VM, 4 KB pages came in at 360 us a megabyte, huge
 * pages at 46.  So a mapping of a quarter of a huge page or more is made
 * of whole huge pages (transparent huge pages, "madvise" mode): clearing
 * the whole of a last one barely used is still cheaper than faulting its
 * part in.
 * Those filled whole are faulted in by one call.
 *
 * Where LeakSanitizer runs (an ASan or LSan program the runtime is in,
 * or fntrace's own sanitize build), each mapping is one of its root
 * regions: LSan finds what is reachable from the heap, the stacks and
 * the globals, not from mappings of ours, and some of ours hold the only
 * pointer to a block malloc() gave (a module's function names), which it
 * then reported leaked once its unwinder saw past the loader that
 * called the runtime's start.
 */
#include "bulk.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_SIZE	((size_t)2 << 20)

/* LSan's interface, when the process has it. */
extern void __lsan_register_root_region(const void *p, size_t size) __attribute__((weak));
extern void __lsan_unregister_root_region(const void *p, size_t size) __attribute__((weak));

/* A mapping of whole huge pages is placed on a huge page boundary
 * (Linux 6.7 and later); any other may not be. */
static size_t map_size(size_t size)
{
	return size < HUGE_SIZE / 4 ? size : (size + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1);
}

void *bulk_map(size_t size, int fill)
{
	size_t len = map_size(size);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	if (len >= HUGE_SIZE)
		madvise(p, len, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
	/* A failure leaves the pages to fault in as they are touched. */
	if (fill)
		madvise(p, size, MADV_POPULATE_WRITE);
#endif
	if (__lsan_register_root_region)
		__lsan_register_root_region(p, len);
	return p;
}

void bulk_unmap(void *p, size_t size)
{
	if (!p)
		return;
	if (__lsan_unregister_root_region)
		__lsan_unregister_root_region(p, map_size(size));
	munmap(p, map_size(size));
}

/* Each array keeps its mapping's size in front of it, a whole alignment
 * unit, as malloc's do. */
struct bulk_head {
	size_t size;
	max_align_t pad;
};

#define HEAD sizeof(struct bulk_head)

void *bulk_alloc(size_t size)
{
	struct bulk_head *h;

	if (size > SIZE_MAX - HEAD || !(h = bulk_map(size + HEAD, 0)))
		return NULL;
	h->size = size + HEAD;
	return (char *)h + HEAD;
}

void bulk_free(void *p)
{
	if (p) {
		struct bulk_head *h = (struct bulk_head *)((char *)p - HEAD);

		bulk_unmap(h, h->size);
	}
}

void *bulk_realloc(void *p, size_t size)
{
	struct bulk_head *old = p ? (struct bulk_head *)((char *)p - HEAD) : NULL;
	void *q;

	if (old && size + HEAD <= old->size)
		return p;
	q = bulk_alloc(size);
	if (q && old)
		memcpy(q, p, old->size - HEAD);
	if (q)
		bulk_free(p);
	return q;
}
