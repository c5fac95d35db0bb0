// SPDX-License-Identifier: GPL-2.0
/*
 * Far-call trampolines (the kernel's module problem: a module's calls
 * cannot reach ftrace_caller; see "mips dynamic function tracer
 * support" on LKML, 2009).  A call site reaches
 * only so far (x86_64: +-2 GiB), and a PIE program is mapped far from
 * libfntrace.so.  Such a site calls a trampoline in a page mapped near its
 * module, which jumps on to ftrace_caller.  Pages are shared by every
 * module they are near; a slot, once written, is never changed.  A page
 * no loaded module can reach is unmapped when a new one is needed: only
 * sites of modules gone could call it.  Kept, they filled the table in a
 * dlopen/dlclose loop whose library landed somewhere new now and then
 * (aarch64's bl reaches +-128 MiB), and patching failed.
 */
#include "ftrace.h"
#include "messages.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_PAGES 64
#define TRAMP_MAX 32		/* bytes: more than any arch's trampoline */

struct tramp_page {
	uintptr_t addr;
	unsigned used;		/* slots written */
};

static struct tramp_page pages[MAX_PAGES];
static unsigned nr_pages;

/* The slots last handed out, by module range and target: a module's
 * sites all want the same few, and a search per site (200 000 of them at
 * a recording's start) cost more than the patching.  Forgotten whenever
 * a page is unmapped. */
#define MEMO_SIZE 4

struct memo {
	uintptr_t lo, hi, target, at;
};

static struct memo memo[MEMO_SIZE];
static unsigned memo_next;

static uintptr_t memo_find(uintptr_t lo, uintptr_t hi, uintptr_t target)
{
	for (unsigned i = 0; i < MEMO_SIZE; i++)
		if (memo[i].at && memo[i].lo == lo && memo[i].hi == hi &&
		    memo[i].target == target)
			return memo[i].at;
	return 0;
}

static uintptr_t memo_keep(uintptr_t lo, uintptr_t hi, uintptr_t target, uintptr_t at)
{
	memo[memo_next++ % MEMO_SIZE] = (struct memo){ lo, hi, target, at };
	return at;
}

static int reaches(uintptr_t from_lo, uintptr_t from_hi, uintptr_t to)
{
	uintptr_t reach = arch_call_reach();
	uintptr_t far = to > from_lo ? to - from_lo : from_lo - to;
	uintptr_t far2 = to > from_hi ? to - from_hi : from_hi - to;

	return far < reach && far2 < reach;
}

static uintptr_t slot_addr(const struct tramp_page *p, unsigned i)
{
	return p->addr + i * arch_tramp_size();
}

/* An existing slot that already jumps to target, within reach. */
static uintptr_t find_slot(uintptr_t lo, uintptr_t hi, uintptr_t target)
{
	uint8_t want[TRAMP_MAX];

	arch_tramp_write(want, target);
	for (unsigned p = 0; p < nr_pages; p++) {
		if (!reaches(lo, hi, pages[p].addr))
			continue;
		for (unsigned i = 0; i < pages[p].used; i++) {
			uintptr_t at = slot_addr(&pages[p], i);

			if (__builtin_memcmp((void *)at, want, arch_tramp_size()) == 0)
				return at;
		}
	}
	return 0;
}

/* Map size bytes (read-write) as near [lo, hi) as the address space
 * allows, all of them within call reach of it. */
uintptr_t ftrace_map_near(uintptr_t lo, uintptr_t hi, size_t size)
{
	uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE), step = 1ul << 20;

	for (uintptr_t d = step; d < arch_call_reach(); d += step) {
		uintptr_t tries[2] = { (lo - d) & ~(ps - 1), (hi + d) & ~(ps - 1) };

		for (unsigned i = 0; i < 2; i++) {
			void *p;

			if ((i == 0 && d > lo) || !reaches(lo, hi, tries[i]) ||
			    !reaches(lo, hi, tries[i] + size))
				continue;
			p = mmap((void *)tries[i], size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
			if (p == (void *)tries[i])
				return tries[i];
			if (p != MAP_FAILED)
				munmap(p, size);
		}
	}
	return 0;
}

/* Can a site of a loaded module call into the page at addr? */
static int page_in_reach(uintptr_t addr)
{
	for (unsigned i = 0; i < ftrace_module_count(); i++) {
		const struct ft_module *mod = ftrace_module_get(i);

		if (!mod->gone && reaches(mod->text_lo, mod->text_hi, addr))
			return 1;
	}
	return 0;
}

/* Unmap the pages out of every loaded module's reach, keeping the order
 * of the others (find_slot() takes the first that fits). */
static void reclaim_pages(uintptr_t ps)
{
	unsigned kept = 0;

	for (unsigned p = 0; p < nr_pages; p++) {
		if (page_in_reach(pages[p].addr))
			pages[kept++] = pages[p];
		else
			munmap((void *)pages[p].addr, ps);
	}
	if (kept < nr_pages)
		memset(memo, 0, sizeof(memo));
	nr_pages = kept;
}

static struct tramp_page *page_with_room(uintptr_t lo, uintptr_t hi)
{
	uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t addr;

	for (unsigned p = 0; p < nr_pages; p++)
		if (reaches(lo, hi, pages[p].addr) &&
		    (pages[p].used + 1) * arch_tramp_size() <= ps)
			return &pages[p];
	reclaim_pages(ps);
	if (nr_pages == MAX_PAGES || !(addr = ftrace_map_near(lo, hi, (size_t)sysconf(_SC_PAGESIZE)))) {
		ft_warn("no room for a far-call trampoline near %#lx", (unsigned long)lo);
		return NULL;
	}
	if (mprotect((void *)addr, ps, PROT_READ | PROT_EXEC))
		return NULL;
	pages[nr_pages] = (struct tramp_page){ addr, 0 };
	return &pages[nr_pages++];
}

/* A new slot: nothing calls it yet, so it is written directly. */
static int write_slot(uintptr_t page, uintptr_t at, uintptr_t target)
{
	uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE);

	if (mprotect((void *)page, ps, PROT_READ | PROT_WRITE))
		return -1;
	arch_tramp_write((uint8_t *)at, target);
	__builtin___clear_cache((char *)at, (char *)at + arch_tramp_size());
	return mprotect((void *)page, ps, PROT_READ | PROT_EXEC);
}

uintptr_t ftrace_tramp_get(uintptr_t lo, uintptr_t hi, uintptr_t target)
{
	uintptr_t at = memo_find(lo, hi, target);
	struct tramp_page *p;

	if (at)
		return at;
	at = find_slot(lo, hi, target);
	if (at)
		return memo_keep(lo, hi, target, at);
	p = page_with_room(lo, hi);
	if (!p)
		return 0;
	at = slot_addr(p, p->used);
	if (write_slot(p->addr, at, target))
		return 0;
	p->used++;
	return memo_keep(lo, hi, target, at);
}

int ftrace_site_call(const struct ft_module *mod, uintptr_t ip, const uint8_t *orig,
		     unsigned len, uintptr_t target, uint8_t *insn)
{
	if (arch_make_call(ip, orig, len, target, insn) == 0)
		return 0;
	target = ftrace_tramp_get(mod->text_lo, mod->text_hi, target);
	if (!target)
		return -1;
	return arch_make_call(ip, orig, len, target, insn);
}
