// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's own work on a program's thread, said in the buffer's
 * header (trace_format.h's ft_own_window): its start-up, before the
 * program's main() and often before its constructors, makes about a
 * hundred system calls (/proc reads, the patching's mprotect()s), and a
 * dlopen() a few dozen more.  A recorder of the kernel's events (record
 * -e) files each window with them, for the reader to leave those calls
 * out: they are fntrace's, not the program's, as the control thread's
 * are.  A window is said at its end, when the buffer is there (the
 * start-up attaches it halfway), and the recorder may have filed its
 * calls long before: so the reader, not the recorder, tells them apart.
 */
#include "buffer.h"
#include "own_work.h"
#include "../common/clock_pair.h"
#include "../common/trace_format.h"

#include <sys/syscall.h>
#include <unistd.h>

static void store_u64(_Atomic uint32_t w[2], uint64_t v)
{
	atomic_store_explicit(&w[0], (uint32_t)v, memory_order_relaxed);
	atomic_store_explicit(&w[1], (uint32_t)(v >> 32), memory_order_relaxed);
}

/* The buffer, if a recorder of the kernel's events wants the windows
 * (FT_SHM_OWN_WORK). */
static struct ft_shm *wanting(void)
{
	struct ft_shm *shm = ft_buffer_shm();

	if (!shm || !(atomic_load_explicit(&shm->flags, memory_order_relaxed) & FT_SHM_OWN_WORK))
		return NULL;
	return shm;
}

/* The clock read only when a window will be said: a chunk handed over
 * begins one each time.  0: none (nor said at its end, should a
 * recorder of the kernel's events come meanwhile). */
uint64_t ft_own_work_begin(void)
{
	return wanting() ? ft_monotonic_ns() : 0;
}

/* Into the slot of its number, made whole in the order a seqlock wants:
 * the slot marked torn, then its words, then its number. */
static void say(struct ft_own_window *ring, unsigned slots, _Atomic uint32_t *next,
		uint32_t pid, uint32_t tid, uint64_t from)
{
	uint32_t n = atomic_fetch_add(next, 1);
	struct ft_own_window *w = &ring[n % slots];

	atomic_store_explicit(&w->seq, 0, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&w->pid, pid, memory_order_relaxed);
	atomic_store_explicit(&w->tid, tid, memory_order_relaxed);
	store_u64(w->from, from);
	store_u64(w->to, ft_monotonic_ns());
	atomic_store_explicit(&w->seq, n + 1, memory_order_release);
}

void ft_own_work_end(uint64_t from)
{
	struct ft_shm *shm = wanting();

	if (shm && from)
		say(shm->own_windows, FT_OWN_WINDOWS, &shm->own_next, (uint32_t)getpid(),
		    (uint32_t)syscall(SYS_gettid), from);
}

void ft_own_work_end_of(uint32_t pid, uint32_t tid, uint64_t from)
{
	struct ft_shm *shm = wanting();

	if (shm && from)
		say(shm->thread_windows, FT_THREAD_WINDOWS, &shm->thread_next, pid, tid, from);
}

void ft_own_share_end(uint64_t from)
{
	if (from)
		ft_own_work_end_of((uint32_t)getpid(), (uint32_t)syscall(SYS_gettid), from);
}
