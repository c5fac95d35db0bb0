// SPDX-License-Identifier: GPL-2.0
/*
 * Records live in fixed blocks that never move, so a tracer may hold a
 * pointer while the control path adds more.  The hash from a site's
 * return address to its record is the tracers' only lookup: it is rebuilt
 * whole and published with one pointer store, and never changed in place.
 *
 * A replaced table is retired, not freed: a tracer on another thread may
 * still be reading it.  Retired tables are unmapped after a grace period,
 * the user-space form of the kernel's synchronize_rcu(): a sync makes every
 * thread's earlier stores visible, and then every thread is seen outside
 * the tracers (ft_threads_quiescent), and no lookup outside them is under
 * way.  Kept forever, they grew by a table per dlopen: a dlopen/dlclose
 * loop ran a 32-bit process out of address space.
 */
#include "asm_offsets.h"
#include "../common/bulk.h"
#include "ftrace.h"
#include "events.h"
#include "sync.h"
#include "thread.h"
#include "../common/array.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define REC_BLOCK_SHIFT	FT_REC_BLOCK_SHIFT	/* asm_offsets.h: the fast paths index blocks too */
#define REC_BLOCK	(1u << REC_BLOCK_SHIFT)
#define REC_MAX_BLOCKS	4096		/* 16 M records */

/* Both read by the graph hooks' fast paths in assembly too (their
 * layouts: asm_offsets.h, checked below). */
struct ftrace_rec *ftrace_rec_blocks[REC_MAX_BLOCKS];
static uint32_t nr_recs;

struct rec_hash {
	size_t size;			/* of the mapping */
	unsigned shift;			/* 64 - log2(slots) */
	uintptr_t mask;
	struct rec_slot {
		uintptr_t key;		/* site end: the address the site returns to */
		uint32_t id;
	} slots[];
};

/* One empty slot, so a lookup before the first rebuild finds nothing. */
static struct rec_hash empty_hash = { .shift = 63, .mask = 0, .slots = { { 0, 0 } } };
struct rec_hash *_Atomic ftrace_rec_hash = &empty_hash;

#if ARCH_GRAPH_FAST_PATHS
_Static_assert(offsetof(struct rec_hash, shift) == FT_HASH_SHIFT &&
	       offsetof(struct rec_hash, mask) == FT_HASH_MASK &&
	       offsetof(struct rec_hash, slots) == FT_HASH_SLOTS &&
	       sizeof(struct rec_slot) == 1u << FT_HASH_SLOT_SHIFT &&
	       offsetof(struct rec_slot, id) == FT_HASH_SLOT_ID &&
	       sizeof(struct ftrace_rec) == FT_REC_SIZE &&
	       offsetof(struct ftrace_rec, flags) == FT_REC_FLAGS &&
	       offsetof(struct ftrace_rec, kind) == FT_REC_KIND && SITE_DETOUR == FT_SITE_DETOUR,
	       "asm_offsets.h describes the records and their hash");
#endif

uint32_t ftrace_rec_count(void)
{
	return nr_recs;
}

struct ftrace_rec *ftrace_rec_get(uint32_t id)
{
	uint32_t i = id - 1;

	if (id == 0 || id > nr_recs)
		return NULL;
	return &ftrace_rec_blocks[i >> REC_BLOCK_SHIFT][i & (REC_BLOCK - 1)];
}

uint32_t ftrace_rec_add(const struct ftrace_rec *rec)
{
	uint32_t i = nr_recs, b = i >> REC_BLOCK_SHIFT;

	if (b >= REC_MAX_BLOCKS)
		return 0;
	if (!ftrace_rec_blocks[b]) {
		void *p = bulk_map(REC_BLOCK * sizeof(*rec), 0);

		if (!p)
			return 0;
		ftrace_rec_blocks[b] = p;
	}
	ftrace_rec_blocks[b][i & (REC_BLOCK - 1)] = *rec;
	return ++nr_recs;
}

/*
 * Room for n more records, the blocks they need mapped together and
 * faulted in by one call (bulk.c): a module's 100 000 records are 4 MB,
 * a thousand faults as they were added.  Blocks still never move nor go
 * away.  If this fails, ftrace_rec_add() maps them one by one.
 */
void ftrace_rec_reserve(uint32_t n)
{
	size_t bytes = REC_BLOCK * sizeof(struct ftrace_rec);
	uint32_t from = nr_recs >> REC_BLOCK_SHIFT, to;
	char *p;

	if (n < REC_BLOCK || (uint64_t)nr_recs + n > (uint64_t)REC_MAX_BLOCKS * REC_BLOCK)
		return;
	to = (nr_recs + n - 1) >> REC_BLOCK_SHIFT;
	/* Blocks are mapped in order: past the first missing one, none is. */
	while (from <= to && ftrace_rec_blocks[from])
		from++;
	if (from > to || !(p = bulk_map((size_t)(to - from + 1) * bytes, 1)))
		return;
	for (uint32_t b = from; b <= to; b++)
		ftrace_rec_blocks[b] = (struct ftrace_rec *)(p + (size_t)(b - from) * bytes);
}

static inline size_t hash_index(const struct rec_hash *h, uintptr_t key)
{
	return (size_t)((key * FT_HASH_MULTIPLIER) >> h->shift) & h->mask;
}

/* Callers are inside a tracer, their thread's busy flag up. */
uint32_t ftrace_rec_lookup(uintptr_t self_ret)
{
	const struct rec_hash *h = atomic_load_explicit(&ftrace_rec_hash,
							memory_order_acquire);
	size_t i = hash_index(h, self_ret);

	for (;;) {
		const struct rec_slot *s = &h->slots[i];

		if (s->key == self_ret)
			return s->id;
		if (s->key == 0)
			return 0;
		i = (i + 1) & h->mask;
	}
}

/* Lookups made outside the tracers, counted while they run. */
static _Atomic unsigned outside_readers;

uint32_t ftrace_rec_lookup_outside(uintptr_t self_ret)
{
	uint32_t id;

	atomic_fetch_add(&outside_readers, 1);
	id = ftrace_rec_lookup(self_ret);
	atomic_fetch_sub(&outside_readers, 1);
	return id;
}

static void hash_insert(struct rec_hash *h, uintptr_t key, uint32_t id)
{
	size_t i = hash_index(h, key);

	while (h->slots[i].key)
		i = (i + 1) & h->mask;
	h->slots[i].key = key;
	h->slots[i].id = id;
}

/* A grace period is sought once this many tables wait: each try costs
 * a sync of every thread, and may wait for a thread held inside a tracer
 * (a full buffer); after a failed try, once twice as many wait. */
#define REAP_BATCH 8

static struct rec_hash **retired;
static size_t nr_retired, cap_retired, reap_at = REAP_BATCH;

static int no_outside_reader(void)
{
	for (int i = 0; i < 1000; i++) {
		if (atomic_load(&outside_readers) == 0)
			return 1;
		sched_yield();
	}
	return 0;
}

/* The grace period: after the sync, a thread that enters a tracer loads
 * the new table; one seen outside them has let go of any old one. */
static void reap_hashes(void)
{
	if (nr_retired < reap_at)
		return;
	if (ftrace_sync_cores() || !no_outside_reader() || !ft_threads_quiescent()) {
		reap_at = 2 * nr_retired;
		return;
	}
	for (size_t i = 0; i < nr_retired; i++)
		bulk_unmap(retired[i], retired[i]->size);
	nr_retired = 0;
	reap_at = REAP_BATCH;
}

static void retire_hash(struct rec_hash *h)
{
	if (h == &empty_hash)
		return;
	if (grow_array((void **)&retired, &cap_retired, nr_retired + 1, sizeof(*retired)))
		return;		/* left mapped: a leak, never a fault */
	retired[nr_retired++] = h;
	reap_hashes();
}

/* A table at most half full, of the live (not disabled) records. */
int ftrace_rec_hash_rebuild(void)
{
	unsigned bits = 4;
	struct rec_hash *h;
	size_t size;

	while ((1ull << bits) < 2ull * nr_recs + 2)
		bits++;
	size = sizeof(*h) + (sizeof(struct rec_slot) << bits);
	h = bulk_map(size, 1);
	if (!h)
		return -1;
	h->size = size;
	h->shift = 64 - bits;
	h->mask = (1ul << bits) - 1;
	for (uint32_t id = 1; id <= nr_recs; id++) {
		const struct ftrace_rec *rec = ftrace_rec_get(id);

		if (!(rec->flags & FTRACE_FL_DISABLED))
			hash_insert(h, rec->ip + rec->len, id);
	}
	retire_hash(atomic_exchange(&ftrace_rec_hash, h));
	return 0;
}
