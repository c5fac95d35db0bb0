// SPDX-License-Identifier: GPL-2.0
/*
 * Writing into text.  Two passes, as the kernel's ftrace_replace_code():
 * first every site's current bytes are compared with what the caller
 * believes is there, and only if all match is anything written.  Text is
 * writable only while it is being written, and gets back the protection
 * the program had set (textprot.c).
 *
 * Before main() the process runs one thread and sites are simply written.
 * After that other threads may be running the very bytes being changed,
 * so a batch follows the breakpoint protocol (the kernel's
 * text_poke_bp_batch(), arch/x86/kernel/alternative.c):
 *
 *   publish the batch            the SIGTRAP handler can now emulate it
 *   trap over every first byte   cc 1f 44 00 00   (was 0f 1f 44 00 00)
 *   sync every thread
 *   write every tail             cc 67 2a 31 f0   (nobody runs a tail now)
 *   sync every thread
 *   write every first byte       e8 67 2a 31 f0   call ftrace_caller
 *   sync every thread
 *   retire the batch
 *
 * Three syncs per batch, whatever its size (under an emulator, a fourth
 * before the first breakpoint).  No thread is ever stopped.  A sync that
 * fails undoes the batch while it can (undo_traps), and the caller hears
 * TEXT_PATCH_UNDONE: text as it was.
 */
#include "breakpoint.h"
#include "../common/plain_bytes.h"
#include "../common/sort.h"
#include "ftrace.h"
#include "messages.h"
#include "seccomp.h"
#include "sync.h"
#include "textprot.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int live;

void ftrace_patch_go_live(void)
{
	live = 1;
}

int ftrace_patch_is_live(void)
{
	return live;
}

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

/* An update collects its batch in address order already: seen without a
 * call per pair, as sort_array() would make. */
static int in_address_order(const struct text_patch *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		if (v[i].addr < v[i - 1].addr)
			return 0;
	return 1;
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

/* Calls fn on every run of sites on the same or adjacent pages, so that
 * each run costs one mprotect. */
static int for_each_run(const struct text_patch *v, unsigned n,
			int (*fn)(uintptr_t lo, uintptr_t hi, int arg), int arg)
{
	uintptr_t ps = page_size();
	unsigned start = 0;

	for (unsigned i = 1; i <= n; i++) {
		if (i < n && (v[i].addr & ~(ps - 1)) <=
			     ((v[i - 1].addr + v[i - 1].len - 1) & ~(ps - 1)) + ps)
			continue;
		if (fn(v[start].addr, v[i - 1].addr + v[i - 1].len, arg))
			return -1;
		start = i;
	}
	return 0;
}

/*
 * A text page is the file's until it is first written: then a
 * copy-on-write fault copies it, and flushes its TLB entry, one page at a
 * time (800 pages for 100 000 sites: a third of a recording's start-up).
 * The kernel breaks them all in one call, at a third of the cost; the
 * copies hold the same bytes, so a thread running them sees nothing.
 * Where it cannot (before Linux 5.14), the writes fault as before.
 */
static int populate(uintptr_t lo, uintptr_t hi, int unused)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t ps = page_size();

	lo &= ~(ps - 1);
	hi = (hi + ps - 1) & ~(ps - 1);
	madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#endif
	(void)lo, (void)hi, (void)unused;
	return 0;
}

/* Readable and writable, and its pages copied already: one pass over
 * the batch. */
static int make_writable(uintptr_t lo, uintptr_t hi, int unused)
{
	(void)unused;
	if (text_window_add(lo, hi))
		return -1;
	return populate(lo, hi, 0);
}

static int flush(uintptr_t lo, uintptr_t hi, int unused)
{
	__builtin___clear_cache((char *)lo, (char *)hi);
	return 0;
}

/*
 * n bytes to text at `at`, each piece one naturally aligned store of 8, 4,
 * 2 or 1 bytes, in address order.  A thread fetching an instruction meets
 * a store whole or not at all: riscv fetches in 16-bit parcels, and a
 * 4-byte instruction of compressed code may sit on a 2-byte boundary,
 * where memcpy() might write it a byte at a time.
 */
static void store_one(uintptr_t at, const uint8_t *src, unsigned size)
{
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	switch (size) {
	case 8:
		memcpy(&v8, src, 8);
		*(volatile uint64_t *)at = v8;
		break;
	case 4:
		memcpy(&v4, src, 4);
		*(volatile uint32_t *)at = v4;
		break;
	case 2:
		memcpy(&v2, src, 2);
		*(volatile uint16_t *)at = v2;
		break;
	default:
		*(volatile uint8_t *)at = *src;
	}
}

static void store_text(uintptr_t at, const uint8_t *src, unsigned n)
{
	while (n) {
		unsigned size = 8;

		while (size > n || (at & (size - 1)))
			size /= 2;
		store_one(at, src, size);
		at += size;
		src += size;
		n -= size;
	}
}

/* Bytes [from, to) of every site's new instruction (its old one if
 * back). */
static void write_part(const struct text_patch *v, unsigned n, unsigned from, unsigned to,
		       int back)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned end = to < v[i].len ? to : v[i].len;

		if (from < end)
			store_text(v[i].addr + from, (back ? v[i].old : v[i].new) + from,
				   end - from);
	}
	for_each_run(v, n, flush, 0);
}

static void write_breakpoints(const struct text_patch *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		store_text(v[i].addr, arch_breakpoint, arch_breakpoint_len);
	for_each_run(v, n, flush, 0);
}

static struct bp_site *batch_of(const struct text_patch *v, unsigned n)
{
	struct bp_site *b = calloc(n, sizeof(*b));

	for (unsigned i = 0; b && i < n; i++) {
		b[i].addr = v[i].addr;
		b[i].len = v[i].len;
		plain_bytes_copy(b[i].insn, v[i].new, v[i].len);
		plain_bytes_copy(b[i].old, v[i].old, v[i].len);
	}
	return b;
}

/*
 * A sync fails when a thread did not answer (it blocks the sync signal
 * with the system call): that thread may not see what was written since
 * the last sync.  Until the tails are written it sees the old
 * instruction or its breakpoint, which the handler makes the old or the
 * new, so the step is undone: old tails (no thread runs a tail behind a
 * breakpoint every thread saw), a sync for the others, then old first
 * bytes, each one store; a trap that meets an old byte runs it again, so
 * no sync is owed after them.  Once every tail is written and seen, the
 * first bytes finish the change: a thread that still sees a breakpoint is
 * emulated or runs the new instruction, so the last sync may fail and the
 * batch still stands.
 */
static int undo_traps(const struct text_patch *v, unsigned n, int tails_written)
{
	unsigned bp = arch_breakpoint_len;

	if (tails_written) {
		write_part(v, n, bp, ARCH_MAX_INSN, 1);
		ftrace_sync_cores();
	}
	write_part(v, n, 0, bp, 1);
	return TEXT_PATCH_UNDONE;
}

/*
 * Under an emulator the threads' masks cannot be read (ftrace_traps_blocked):
 * a thread that blocks SIGTRAP with the system call, past the wrappers,
 * would die on a breakpoint.  Such a thread blocks everything, the sync
 * signal too: a sync before any breakpoint is written finds it.
 */
static int everyone_takes_traps(void)
{
	return !ftrace_cpu_emulated() || ftrace_sync_cores() == 0;
}

/*
 * Once every first byte is a breakpoint and seen, no thread enters a
 * detour's entry any more; one may still be inside it, past its first
 * instruction, where the tail is about to change: wait until none is.
 * A site no longer than the breakpoint (aarch64's one word) has no
 * inside and no tail.
 */
static int has_inside(const struct text_patch *p)
{
	return p->guard && p->len > arch_breakpoint_len;
}

static int no_thread_inside(const struct text_patch *v, unsigned n)
{
	uintptr_t (*ranges)[2] = NULL;
	unsigned nr = 0;
	int ret;

	for (unsigned i = 0; i < n; i++)
		nr += has_inside(&v[i]);
	if (!nr)
		return 0;
	if (!(ranges = calloc(nr, sizeof(*ranges))))
		return -1;
	nr = 0;
	for (unsigned i = 0; i < n; i++)
		if (has_inside(&v[i])) {
			ranges[nr][0] = v[i].addr + arch_breakpoint_len;
			ranges[nr++][1] = v[i].addr + v[i].len;
		}
	ret = ftrace_sync_pcs_outside((const uintptr_t (*)[2])ranges, nr);
	free(ranges);
	return ret;
}

/* The breakpoint protocol, for sites longer than the trap instruction;
 * a site no longer than it is one store, made by the last step. */
static int write_with_traps(const struct text_patch *v, unsigned n)
{
	unsigned bp = arch_breakpoint_len;
	struct bp_site *b = batch_of(v, n);
	int ret = -1;

	if (!b || ftrace_bp_install() || ftrace_sync_init())
		goto out;
	if (!everyone_takes_traps()) {
		ret = TEXT_PATCH_UNDONE;
		goto out;
	}
	ftrace_bp_publish(b, n);
	write_breakpoints(v, n);
	if (ftrace_sync_cores() || no_thread_inside(v, n)) {
		ret = undo_traps(v, n, 0);
	} else {
		write_part(v, n, bp, ARCH_MAX_INSN, 0);
		if (ftrace_sync_cores()) {
			ret = undo_traps(v, n, 1);
		} else {
			write_part(v, n, 0, bp, 0);
			ftrace_sync_cores();
			ret = 0;
		}
	}
	ftrace_bp_retire();
out:
	free(b);
	return ret;
}

/* Each site that can be written by one atomic store (and, if live_only,
 * that threads can run through) is; the others go to rest, counted. */
static unsigned poke_what_can_be(const struct text_patch *v, unsigned n,
				 struct text_patch *rest, int live_only)
{
	unsigned nr = 0;

	for (unsigned i = 0; i < n; i++)
		if (v[i].guard ||
		    (live_only && !arch_can_poke_live(v[i].addr, v[i].old, v[i].new, v[i].len)) ||
		    arch_poke_atomic(v[i].addr, v[i].new, v[i].len))
			rest[nr++] = v[i];
	return nr;
}

/* The rest could not be made: every site that holds its new bytes gets
 * its old ones back, one atomic store as it got them (a thread runs the
 * new instruction or the old, no sync owed), so that the batch is undone
 * whole. */
static int unpoke(const struct text_patch *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!memcmp((const void *)v[i].addr, v[i].new, v[i].len))
			arch_poke_atomic(v[i].addr, v[i].old, v[i].len);
	return TEXT_PATCH_UNDONE;
}

/* The sites the stores could not make, by the breakpoint protocol; all
 * undone if it is. */
static int write_rest(const struct text_patch *v, unsigned n, const struct text_patch *rest,
		      unsigned nr)
{
	if (write_with_traps(rest, nr) == TEXT_PATCH_UNDONE)
		return unpoke(v, n);
	return 0;
}

/*
 * A thread blocks SIGTRAP (it did before the runtime was attached, or
 * glibc does for a moment): a trap would kill it.  Sites that fit one
 * atomic store are written so; the others (the runtime left them alone at
 * attach, so they are rare) still need the protocol.  A thread runs the
 * old instruction or the new: if the sync fails, the stores stand, unless
 * the rest cannot be made.
 */
static int write_without_traps(const struct text_patch *v, unsigned n)
{
	struct text_patch *rest = calloc(n, sizeof(*rest));
	unsigned nr;
	int ret = -1;

	if (ftrace_sync_init() || !rest)
		goto out;
	nr = poke_what_can_be(v, n, rest, 0);
	ret = 0;
	if (ftrace_sync_cores() && nr)
		ret = unpoke(v, n);
	/* Most often a moment inside glibc (pthread_create() blocks every
	 * signal while it makes a thread), where no traced code runs. */
	else if (nr) {
		ft_debug("%u sites need a breakpoint while a thread blocks SIGTRAP", nr);
		ret = write_rest(v, n, rest, nr);
	}
out:
	free(rest);
	return ret;
}

/*
 * While threads run: a change the architecture lets them run through
 * (aarch64's NOP <-> BL) is one store, the others take the breakpoint
 * protocol, whose syncs then cover the stores too; with none left, one
 * sync does, and if it fails the stores stand all the same (a thread
 * runs the old instruction or the new).
 */
static int write_live(const struct text_patch *v, unsigned n)
{
	struct text_patch *rest = calloc(n, sizeof(*rest));
	unsigned nr;
	int ret = -1;

	if (!rest || ftrace_sync_init())
		goto out;
	nr = poke_what_can_be(v, n, rest, 1);
	ret = 0;
	if (nr)
		ret = write_rest(v, n, rest, nr);
	else
		ftrace_sync_cores();
out:
	free(rest);
	return ret;
}

static int write_quiet(const struct text_patch *v, unsigned n)
{
	write_part(v, n, 0, ARCH_MAX_INSN, 0);
	return 0;
}

/* The baseline live patching is measured against: every other thread
 * parked while the sites are written (FNTRACE_PATCH=stop, for bench/). */
static int write_stopped(const struct text_patch *v, unsigned n)
{
	if (ftrace_stop_others())
		return TEXT_PATCH_UNDONE;
	write_part(v, n, 0, ARCH_MAX_INSN, 0);
	ftrace_release_others();
	return 0;
}

static int stop_the_world(void)
{
	static int mode = -1;

	if (mode < 0)
		mode = getenv("FNTRACE_PATCH") && !strcmp(getenv("FNTRACE_PATCH"), "stop");
	return mode;
}

static int write_batch(const struct text_patch *v, unsigned n)
{
	if (verify_all(v, n))
		return -1;
	if (!live)
		return write_quiet(v, n);
	if (stop_the_world())
		return write_stopped(v, n);
	if (ftrace_traps_blocked())
		return write_without_traps(v, n);
	return write_live(v, n);
}

/* The old bytes are read once the pages are readable: a page the program
 * made execute-only is readable only inside the window. */
int text_patch_batch(struct text_patch *v, unsigned n)
{
	int ret = -1;

	if (n == 0)
		return 0;
	if (!ft_seccomp_may_patch())
		return -1;
	if (!in_address_order(v, n))
		sort_array(v, n, sizeof(*v), by_address);
	if (text_window_open())
		return -1;
	if (for_each_run(v, n, make_writable, 0) == 0)
		ret = write_batch(v, n);
	text_window_close();
	return ret;
}
