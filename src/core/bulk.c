// SPDX-License-Identifier: GPL-2.0
/*
 * Large arrays the runtime fills as soon as it has them: the record hash,
 * an update's batch of patches, megabytes each for 100 000 sites.  Page
 * by page, each first touch is a fault, and under a hypervisor a fault
 * costs tens of microseconds: a 4 MB table took longer to fault in than
 * to fill.  They are mapped on their own, on huge pages where the kernel
 * gives them (transparent huge pages in "madvise" mode), and those filled
 * whole are faulted in by one call.
 */
#include "bulk.h"

#include <sys/mman.h>

#define HUGE_SIZE	((size_t)2 << 20)

/* A mapping of whole huge pages is placed on a huge page boundary
 * (Linux 6.7 and later); any other may not be. */
static size_t map_size(size_t size)
{
	return size < HUGE_SIZE ? size : (size + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1);
}

void *ft_bulk_map(size_t size, int fill)
{
	void *p = mmap(NULL, map_size(size), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	/* Not the last, partly used one: a byte touched there would clear
	 * a whole huge page. */
	if (size >= HUGE_SIZE)
		madvise(p, size & ~(HUGE_SIZE - 1), MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
	/* A failure leaves the pages to fault in as they are touched. */
	if (fill)
		madvise(p, size, MADV_POPULATE_WRITE);
#endif
	return p;
}

void ft_bulk_unmap(void *p, size_t size)
{
	if (p)
		munmap(p, map_size(size));
}
