// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's own work on the program's threads (its start-up, a
 * dlopen()ed module read, a thread's own share), as the buffer's header
 * says it in two rings of the last windows (trace_format.h): each filed as a
 * KEV_OWN_WORK record, for the reader to leave out the system calls and
 * page faults a thread had inside one.  Filed, not applied: a window is said at its end, and
 * a drain pass may have filed its calls already.
 *
 * Windows are taken in their numbers' order.  One whose slot is still
 * being written stops the pass (the next one takes it up), unless the
 * ring has moved past it, or this is the last pass: a writer killed
 * halfway never finishes its slot.
 */
#include "kevents.h"
#include "../common/shm.h"

#include <stdatomic.h>

static uint64_t load_u64(const struct ft_shm *shm, const _Atomic uint32_t w[2])
{
	uint64_t lo = ft_shm_u32(shm, atomic_load_explicit(&w[0], memory_order_relaxed));
	uint64_t hi = ft_shm_u32(shm, atomic_load_explicit(&w[1], memory_order_relaxed));

	return hi << 32 | lo;
}

/* One of the header's two rings: its slots, how many, its count. */
struct own_ring {
	const struct ft_own_window *windows;
	unsigned slots;
	const _Atomic uint32_t *next;
	uint32_t *seen;
};

/* Window n into rec; 1 if it was whole, 0 if not yet, -1 if a later one
 * took its slot. */
static int read_window(const struct ft_shm *shm, const struct own_ring *r, uint32_t n,
		       struct kev_record *rec)
{
	const struct ft_own_window *w = &r->windows[n % r->slots];
	uint32_t before = ft_shm_u32(shm, atomic_load_explicit(&w->seq, memory_order_acquire));

	if (before != n + 1)
		return before && (int32_t)(before - (n + 1)) > 0 ? -1 : 0;
	*rec = (struct kev_record){
		.kind = KEV_OWN_WORK,
		.pid = ft_shm_u32(shm, atomic_load_explicit(&w->pid, memory_order_relaxed)),
		.tid = ft_shm_u32(shm, atomic_load_explicit(&w->tid, memory_order_relaxed)),
		.time = load_u64(shm, w->from),
		.value = (int64_t)load_u64(shm, w->to),
	};
	atomic_thread_fence(memory_order_acquire);
	if (ft_shm_u32(shm, atomic_load_explicit(&w->seq, memory_order_relaxed)) != n + 1)
		return -1;
	return 1;
}

static void file_ring(struct kevents *k, const struct own_ring *r, int last)
{
	uint32_t next = ft_shm_u32(k->shm, atomic_load_explicit(r->next, memory_order_acquire));

	if (next - *r->seen > r->slots)
		*r->seen = next - r->slots;
	for (; *r->seen != next; ++*r->seen) {
		struct kev_record rec;
		int got = read_window(k->shm, r, *r->seen, &rec);

		if (got > 0)
			kev_put(k, &rec);
		else if (!got && !last)
			break;
	}
}

void kev_file_own_work(struct kevents *k, int last)
{
	const struct ft_shm *shm = k->shm;

	if (!shm)
		return;
	file_ring(k, &(struct own_ring){ shm->own_windows, FT_OWN_WINDOWS, &shm->own_next,
					 &k->own_seen }, last);
	file_ring(k, &(struct own_ring){ shm->thread_windows, FT_THREAD_WINDOWS,
					 &shm->thread_next, &k->thread_seen }, last);
}

void kev_own_work_from_now(struct kevents *k)
{
	k->own_seen = ft_shm_u32(k->shm, atomic_load(&k->shm->own_next));
	k->thread_seen = ft_shm_u32(k->shm, atomic_load(&k->shm->thread_next));
}
