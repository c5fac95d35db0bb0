// SPDX-License-Identifier: GPL-2.0
/*
 * SIGTRAP: ours, or the program's.
 *
 * A trap at a site of the published batch is emulated (the new
 * instruction).  A trap whose breakpoint is no longer in memory raced with
 * the end of a batch: the thread simply runs the instruction now there.
 * Anything else is the program's: its handler, or the default action.
 * The program may install its own SIGTRAP handler at any time; sigaction()
 * and signal() are wrapped so that it is recorded and chained, and ours
 * stays first, like the kernel's int3 handler.
 */
#include "breakpoint.h"
#include "../common/plain_bytes.h"
#include "crash.h"
#include "snapsig.h"
#include "interpose.h"
#include "sigmask.h"
#include "sync.h"
#include "tasks.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct bp_site *_Atomic batch;
static _Atomic unsigned batch_len;
static _Atomic int inside;		/* handlers looking at the batch */
static _Atomic unsigned published;	/* batches published so far */
static int installed;
static struct sigaction chained;	/* what the program asked for */


/* Sequentially consistent throughout: a handler announces itself (inside)
 * before it reads the batch, and retire clears the batch before it reads
 * inside, so one of the two always sees the other. */
static const struct bp_site *find_site(uintptr_t addr)
{
	const struct bp_site *v = atomic_load(&batch);
	unsigned lo = 0, hi = atomic_load(&batch_len);

	while (v && lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (v[mid].addr == addr)
			return &v[mid];
		if (v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The program's disposition, as if we were not here. */
static void chain(int sig, siginfo_t *si, void *uc)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	if (chained.sa_flags & SA_SIGINFO) {
		chained.sa_sigaction(sig, si, uc);
	} else if (chained.sa_handler == SIG_DFL) {
		ft_real_sigaction()(SIGTRAP, &dfl, NULL);
		raise(SIGTRAP);
	} else if (chained.sa_handler != SIG_IGN) {
		chained.sa_handler(sig);
	}
}

static int is_breakpoint(const siginfo_t *si)
{
	return si->si_code != SI_USER && si->si_code != SI_QUEUE && si->si_code != SI_TKILL;
}

/* A thread at a site mid-change may run the old instruction or the new:
 * the new one if it is ours to emulate, else the old one.  (detach writes
 * back the compiler's "call *mcount@GOTPCREL(%rip)", which is not ours;
 * the nop it replaces is.) */
static int emulate(void *uc, uintptr_t addr)
{
	const struct bp_site *site;
	int done = 0;

	atomic_fetch_add(&inside, 1);
	site = find_site(addr);
	if (site)
		done = arch_emulate(uc, addr, site->insn, site->len) == 0 ||
		       arch_emulate(uc, addr, site->old, site->len) == 0;
	atomic_fetch_sub(&inside, 1);
	return done;
}

/*
 * Not in the batch, and still a breakpoint: the program's own, unless a
 * batch was published meanwhile.  A handler slow to run may look while
 * the next batch is being published, and then see its breakpoint at the
 * same site: it looks again.
 */
static int handle_trap(siginfo_t *si, void *uc)
{
	uintptr_t addr = arch_trap_address(uc);

	for (;;) {
		unsigned seen = atomic_load(&published);

		if (emulate(uc, addr))
			return 1;
		if (!plain_bytes_equal((const void *)addr, arch_breakpoint, arch_breakpoint_len)) {
			/* Not a breakpoint any more: a batch ended meanwhile. */
			arch_restart_at(uc, addr);
			return 1;
		}
		atomic_thread_fence(memory_order_seq_cst);
		if (atomic_load(&published) == seen)
			return 0;
	}
}

/* The sync signal, blocked while our handler runs (ftrace_bp_install). */
static int sync_blocked;

/* The program's own SIGTRAP handler runs as it would without us: the
 * sync signal reaches it. */
static void chain_unblocked(int sig, siginfo_t *si, void *uc)
{
	sigset_t sync;

	sigemptyset(&sync);
	if (sync_blocked)
		sigaddset(&sync, sync_blocked);
	ftrace_thread_mask(SIG_UNBLOCK, &sync, NULL);
	chain(sig, si, uc);
}

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	if (!is_breakpoint(si) || !handle_trap(si, uc))
		chain_unblocked(sig, si, uc);
}

void ftrace_bp_init(void)
{
	ft_real_sigaction();
}

int ftrace_bp_install(void)
{
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO | SA_NODEFER };
	int sync = ftrace_sync_signal();

	if (installed)
		return 0;
	/* No sync signal inside the handler: a thread there would show the
	 * trap's frame, whose pc is one byte into the site, to a sync that
	 * looks at where threads resume (sigframes.c); the handler sends it
	 * elsewhere.  The handler never waits on a sync. */
	sigemptyset(&sa.sa_mask);
	if (sync)
		sigaddset(&sa.sa_mask, sync);
	sync_blocked = sync;
	if (!ft_real_sigaction() || ft_real_sigaction()(SIGTRAP, &sa, &chained))
		return -1;
	installed = 1;
	return 0;
}

/* Counted once the batch can be found, before any of its breakpoints is
 * written: a handler that saw the count before it looks again. */
void ftrace_bp_publish(const struct bp_site *v, unsigned n)
{
	atomic_store(&batch_len, 0);
	atomic_store(&batch, v);
	atomic_store(&batch_len, n);
	atomic_fetch_add(&published, 1);
}

void ftrace_bp_retire(void)
{
	atomic_store(&batch_len, 0);
	atomic_store(&batch, NULL);
	while (atomic_load(&inside))
		sched_yield();
}

/* ---- the program's SIGTRAP handler ---- */

FT_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction copy;
	int ret;

	act = ft_handler_mask_free(act, &copy);
	if (ftrace_sync_sigaction(sig, act, old) == 0)
		return 0;
	if ((ret = ft_crash_sigaction(sig, act, old)) <= 0 ||
	    (ret = ft_snapsig_sigaction(sig, act, old)) <= 0)
		return ret;
	if (sig != SIGTRAP || !installed)
		return ft_real_sigaction()(sig, act, old);
	if (old)
		*old = chained;
	if (act)
		chained = *act;
	return 0;
}

FT_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction act = { .sa_handler = handler, .sa_flags = SA_RESTART }, old;

	sigemptyset(&act.sa_mask);
	if (sigaction(sig, &act, &old))
		return SIG_ERR;
	return old.sa_handler;
}

/*
 * Does any thread block SIGTRAP?  (SigBlk in /proc/self/task/TID/status.)
 * Under an emulator, /proc shows the masks of the emulator's own host
 * threads, which block every signal for moments of their own: not the
 * guest's masks, which the wrappers keep free of SIGTRAP (and no runtime is
 * attached to an emulated process: attach cannot reach into one).
 */
int ftrace_traps_blocked(void)
{
	DIR *d = ftrace_cpu_emulated() ? NULL : opendir("/proc/self/task");
	struct dirent *e;
	int blocked = 0;

	while (d && !blocked && (e = readdir(d))) {
		pid_t tid = atoi(e->d_name);

		if (tid > 0 && !ft_task_foreign(tid))
			blocked = ft_task_blocks_trap(tid);
	}
	if (d)
		closedir(d);
	return blocked;
}
