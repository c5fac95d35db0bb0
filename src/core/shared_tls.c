// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that share one thread pointer.  glibc's clone() with CLONE_VM
 * and without CLONE_SETTLS makes a thread (or a process) that runs on its
 * creator's thread-local storage: the runtime's ft_current, the state of
 * "this thread", is then the same word for both, and two threads writing
 * one context and one shadow stack corrupt both.  No hook can tell the
 * two apart without a system call, so neither is traced while they may
 * both run:
 *
 *   the creator, before clone():   its frames closed (as swapcontext
 *                                  does), a marker, ft_current = NULL,
 *                                  sharers + 1
 *   every hook meanwhile:          no state; the call counted lost
 *   a child whose function returns (clone.c), or a CLONE_VFORK child
 *                                  once its parent runs again: sharers - 1
 *   the first hook with no sharer: ft_current back, a LOST note of the
 *                                  count in its stream: traced again
 *
 * Hooks find no state while ft_current is NULL, and make none while
 * `share` says the storage is shared: `share` is thread-local itself, so
 * every thread on this storage reads the same one.  Their events are
 * counted there and added to the recording's total when the storage's
 * thread runs alone again, or when the program ends.  A child that ends
 * otherwise (its own exit system call) leaves its creator untraced for
 * good, said and counted; so does a child made by a raw clone system
 * call, which no wrapper sees.
 */
#include "buffer.h"
#include "events.h"
#include "messages.h"
#include "readout.h"
#include "shared_tls.h"
#include "sync.h"
#include "tracers.h"
#include "tracing.h"

#include <signal.h>
#include <stdatomic.h>

struct tls_share {
	_Atomic unsigned sharers;	/* children running on this storage */
	/* Events not written meanwhile.  32 bits: mips has no 64-bit
	 * atomics but libatomic's, whose locks are glibc mutexes, which
	 * threads on one storage (one tid in it) cannot share. */
	_Atomic uint32_t untraced;
	int active;			/* ft_current is put aside */
	struct ft_thread *owner;	/* what it was */
};

static __thread struct tls_share share;

int ft_tls_shared(void)
{
	return share.active;
}

static void say_once(void)
{
	static _Atomic int said;

	if (!atomic_exchange(&said, 1))
		ft_warn("clone() without CLONE_SETTLS: a thread and its children share one "
			"thread pointer; their calls are not traced meanwhile (counted lost)");
}

/* With signals blocked: a handler's traced call would push a frame
 * between the close and the switch, which no state could then pop. */
void ft_tls_share_begin(void)
{
	static const char text[] = "fntrace: not traced while clone() children share this thread's storage";
	struct ft_thread *t = ft_current;
	sigset_t all, old;

	sigfillset(&all);
	sigdelset(&all, SIGTRAP);	/* blocked, our breakpoints kill */
	ftrace_thread_mask(SIG_BLOCK, &all, &old);
	atomic_fetch_add(&share.sharers, 1);
	if (!share.active) {
		say_once();
		if (t) {
			graph_close_all(t);
			if (ft_tracing_on)
				ft_marker_write(text, sizeof(text) - 1);
		}
		share.owner = t;
		share.active = 1;
		ft_current = NULL;
	}
	ftrace_thread_mask(SIG_SETMASK, &old, NULL);
}

void ft_tls_share_end(void)
{
	atomic_fetch_sub(&share.sharers, 1);
}

/* The storage's own thread runs alone again: its state back, before the
 * share is over, so that a signal handler's hook meanwhile finds it. */
int ft_tls_share_over(void)
{
	struct ft_thread *t = share.owner;
	uint64_t lost;

	if (atomic_load(&share.sharers))
		return 0;
	ft_current = t;
	share.active = 0;
	lost = atomic_exchange(&share.untraced, 0);
	if (t && lost && !t->own.busy) {
		t->own.busy = 1;
		ft_buffer_add_lost(&t->own, lost);
		t->own.busy = 0;
	} else if (lost) {
		ft_buffer_count_lost(lost);
	}
	return 1;
}

/* A hook found no state: if that is because the storage is shared, the
 * events it would have written are lost. */
void ft_tls_untraced(unsigned events)
{
	if (share.active && ft_tracing_on && events)
		atomic_fetch_add_explicit(&share.untraced, events, memory_order_relaxed);
}

/* The storage of a thread whose TLS block the runtime did not set up,
 * but which holds our variables (a copy of a thread's, clone.c): never
 * traced, and never a state of its own. */
void ft_tls_foreign(void)
{
	ft_current = NULL;
	share.owner = NULL;
	atomic_store(&share.sharers, 1);
	share.active = 1;
}

/* A forked child has only the thread that forked: nobody shares. */
void ft_tls_share_after_fork(void)
{
	atomic_store(&share.sharers, 0);
	atomic_store(&share.untraced, 0);
	if (share.active)
		ft_tls_share_over();
}

/* A thread on a storage of its own (ft_tls_foreign) ends: what it did
 * not trace counts in the total. */
void ft_tls_foreign_end(void)
{
	uint64_t lost = atomic_exchange(&share.untraced, 0);

	if (lost)
		ft_buffer_count_lost(lost);
}

/* The program ends while its storage is shared: what it did not trace
 * still counts in the total the recorder reports. */
__attribute__((destructor)) static void count_at_exit(void)
{
	uint64_t lost = atomic_exchange(&share.untraced, 0);

	if (lost)
		ft_buffer_count_lost(lost);
}
