// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's own work on the program's threads (its start-up, a
 * dlopen()ed module read), as the buffer's header says it in a ring of
 * the last FT_OWN_WINDOWS windows (trace_format.h): each filed as a
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

/* Window n into rec; 1 if it was whole, 0 if not yet, -1 if a later one
 * took its slot. */
static int read_window(const struct ft_shm *shm, uint32_t n, struct kev_record *rec)
{
	const struct ft_own_window *w = &shm->own_windows[n % FT_OWN_WINDOWS];
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

void kev_file_own_work(struct kevents *k, int last)
{
	const struct ft_shm *shm = k->shm;
	uint32_t next;

	if (!shm)
		return;
	next = ft_shm_u32(shm, atomic_load_explicit(&shm->own_next, memory_order_acquire));
	if (next - k->own_seen > FT_OWN_WINDOWS)
		k->own_seen = next - FT_OWN_WINDOWS;
	for (; k->own_seen != next; k->own_seen++) {
		struct kev_record rec;
		int got = read_window(shm, k->own_seen, &rec);

		if (got > 0)
			kev_put(k, &rec);
		else if (!got && !last)
			break;
	}
}
