// SPDX-License-Identifier: GPL-2.0
/*
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE) makes every CPU
 * running a thread of this process execute a core-serialising instruction
 * before it returns: exactly the kernel's sync between patch steps, and
 * one system call however many threads there are.
 *
 * Where membarrier is missing (old kernel, seccomp, or FNTRACE_NO_MEMBARRIER
 * for tests) or cannot reach the code threads run (an emulator's
 * translated blocks, ftrace_cpu_emulated()), every other thread is sent a
 * signal and each acknowledges from its handler: entering and leaving the
 * kernel serialises the core, and an emulator delivers a signal only
 * between two translated blocks, looking the code up again.
 *
 * The signal is the program's too: it may install a handler for that
 * number, or send it.  Ours carry a cookie (sigqueue's value, from this
 * process); any other is the program's and goes to what the program asked
 * for (sigaction() keeps ours first, as for SIGTRAP).  The program may
 * block it, alone or with every other (sigmask.c keeps it deliverable); a
 * thread that blocks it past the wrappers (the system call itself) cannot
 * acknowledge: after two seconds of waiting (ten under an emulator; time
 * the process was stopped does not count) the sync gives up and says
 * why (ftrace_sync_failure), and the patcher undoes the step.
 */
#include "interpose.h"
#include "../common/clock_pair.h"
#include "messages.h"
#include "raw_syscall.h"
#include "sync.h"
#include "sigframes.h"
#include "ftrace.h"
#include "tasks.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <linux/membarrier.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int use_membarrier;
static int sync_signal;
static struct sigaction program_action;	/* what the program asked for */
static char failure[200];	/* why the last sync failed */

/*
 * Every sync has a number, its generation, and the answers carry it:
 * acks and left hold it in their top bits, their count in the low ones.
 * Real-time signals queue: one resent to a slow thread (or sent to a
 * thread still in the handler of the sync before) may be taken after
 * its sync ended, just as the next begins.  Its handler adds its answer
 * to whichever sync is current, in one atomic step, and holds only while
 * that very sync is parked.  Without the number, an answer counted just
 * before the next sync reset the count held the thread in the next
 * stop, its signal blocked by the handler it sat in: it never answered,
 * and the stop failed ("did not answer", under qemu on a busy machine).
 */
#define GEN_SHIFT 16
#define COUNT_MASK 0xffffu
#define MAX_GEN 65534u		/* 1 .. MAX_GEN: odd and even alternate */

static _Atomic uint32_t acks, left;
static _Atomic uint32_t parked;	/* the generation held in the handler; 0: none */
static uint32_t generation;	/* the syncer's, under ftrace_lock */

#define MAX_SIGNALLED 4096

/* Who acknowledged, in order, by the generation's parity: a handler late
 * to write its name writes it where the next sync does not look. */
static pid_t answered[2][MAX_SIGNALLED];

#define MAX_WAITERS 256

static _Atomic pid_t waiting[MAX_WAITERS];	/* asleep with the signal blocked */


/* The value our signals carry: an address no one else sends. */
static void *cookie(void)
{
	return (void *)&answered;
}

static int is_ours(const siginfo_t *si)
{
	return si->si_code == SI_QUEUE && si->si_pid == getpid() &&
	       si->si_value.sival_ptr == cookie();
}

/* Another's signal of that number: the program's disposition, as if we
 * were not here. */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
	struct sigaction act = program_action;

	if (act.sa_flags & SA_SIGINFO) {
		act.sa_sigaction(sig, si, uc);
	} else if (act.sa_handler == SIG_DFL) {
		ft_real_sigaction()(sig, &act, NULL);
		syscall(SYS_rt_tgsigqueueinfo, getpid(), syscall(SYS_gettid), sig, si);
	} else if (act.sa_handler != SIG_IGN) {
		act.sa_handler(sig);
	}
}

/* Counted as out of the handler, if its sync is still the current one. */
static void leave(uint32_t gen)
{
	uint32_t now = atomic_load(&left);

	while (now >> GEN_SHIFT == gen && !atomic_compare_exchange_weak(&left, &now, now + 1))
		;
}

/*
 * The ranges no thread may be inside (ftrace_sync_pcs_outside): while
 * they are published, each answer looks at where its thread was.
 */
static const uintptr_t (*_Atomic guarded)[2];
static unsigned nr_guarded;
static _Atomic unsigned seen_inside;

static int is_guarded(const uintptr_t (*g)[2], uintptr_t pc)
{
	for (unsigned i = 0; i < nr_guarded; i++)
		if (pc >= g[i][0] && pc < g[i][1])
			return 1;
	return 0;
}

/* Where the thread is, and where it resumes as the program's signal
 * handlers it may be in return (sigframes.c). */
static void look_at_pc(const void *uc)
{
	const uintptr_t (*g)[2] = atomic_load(&guarded);
	uintptr_t resumes[4];
	unsigned n;

	if (!g)
		return;
	n = ft_sigframes_pcs(uc, resumes, 4);
	if (is_guarded(g, arch_context_pc(uc)))
		atomic_fetch_add(&seen_inside, 1);
	for (unsigned i = 0; i < n; i++)
		if (is_guarded(g, resumes[i]))
			atomic_fetch_add(&seen_inside, 1);
}

static void on_sync_signal(int sig, siginfo_t *si, void *uc)
{
	uint32_t ack, gen, i;

	if (!is_ours(si)) {
		pass_on(sig, si, uc);
		return;
	}
	look_at_pc(uc);
	ack = atomic_fetch_add(&acks, 1);
	gen = ack >> GEN_SHIFT;
	i = ack & COUNT_MASK;
	if (i < MAX_SIGNALLED)
		answered[gen & 1][i] = syscall(SYS_gettid);
	while (gen && atomic_load(&parked) == gen)	/* 0: a probe, before any sync */
		;
	leave(gen);
}

static unsigned count_of(_Atomic uint32_t *counter)
{
	return atomic_load(counter) & COUNT_MASK;
}

static int membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

/* One of our signals to thread tid: sigqueue's, with the cookie. */
static int send_sync(pid_t tid, int sig)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_ptr = cookie();
	return syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, sig, &si);
}

/*
 * A real-time signal programs are unlikely to use: the highest that can
 * be sent and that the program has left alone.  Under qemu-user the last
 * ones are the emulator's own, and refused: there each candidate is tried
 * on this thread, whose handler just counts an answer (reset before every
 * sync).  Natively every one can be sent, and none is sent to try: a
 * program run under gdb would stop on it (fntrace record -- gdb ...).
 */
static int install_sync_signal(void)
{
	struct sigaction sa = { .sa_sigaction = on_sync_signal,
				.sa_flags = SA_RESTART | SA_SIGINFO }, old;
	pid_t self = syscall(SYS_gettid);

	if (!ft_real_sigaction())
		return -1;
	sigemptyset(&sa.sa_mask);
	for (int sig = SIGRTMAX; !sync_signal && sig >= SIGRTMIN; sig--) {
		if (ft_real_sigaction()(sig, NULL, &old) || old.sa_handler != SIG_DFL ||
		    ft_real_sigaction()(sig, &sa, &old))
			continue;
		program_action = old;
		if (!ftrace_cpu_emulated() || send_sync(self, sig) == 0)
			sync_signal = sig;
		if (sync_signal && ft_real_sigaction()(sig, NULL, &old) == 0)
			ft_sigframes_init(&old);
		else
			ft_real_sigaction()(sig, &old, NULL);
	}
	return sync_signal ? 0 : -1;
}

int ftrace_sync_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (!sync_signal || sig != sync_signal)
		return 1;
	if (old)
		*old = program_action;
	if (act)
		program_action = *act;
	return 0;
}

int ftrace_sync_signal_kept(void)
{
	return use_membarrier ? 0 : sync_signal;
}

const char *ftrace_sync_failure(void)
{
	return failure[0] ? failure : "a thread sync failed";
}

int ftrace_sync_signal(void)
{
	return install_sync_signal() ? 0 : sync_signal;
}

/* Past syscall()'s wrapper, which would keep the sync signal free. */
void ftrace_thread_mask(int how, const sigset_t *set, sigset_t *old)
{
	ft_syscall_direct(SYS_rt_sigprocmask, how, (long)set, (long)old, _NSIG / 8);
}

void ftrace_sync_hold(sigset_t *old)
{
	sigset_t sync;
	int sig = ftrace_sync_signal();

	sigemptyset(&sync);
	if (sig)
		sigaddset(&sync, sig);
	ftrace_thread_mask(SIG_BLOCK, &sync, old);
}

void ftrace_sync_release(const sigset_t *old)
{
	int saved = errno;

	ftrace_thread_mask(SIG_SETMASK, old, NULL);
	errno = saved;
}

/* Held by the image before this one, whose runtime chose the same signal
 * (the same probe, on the same system).  Nothing to do if no real-time
 * signal is blocked: then the handler is installed when first needed. */
void ftrace_sync_after_exec(void)
{
	sigset_t mask, sync;
	int held = 0;

	ftrace_thread_mask(SIG_BLOCK, NULL, &mask);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		held |= sigismember(&mask, sig);
	if (!held || !ftrace_sync_signal())
		return;
	sigemptyset(&sync);
	sigaddset(&sync, sync_signal);
	ftrace_thread_mask(SIG_UNBLOCK, &sync, NULL);
}

/*
 * Is the CPU emulated (qemu-user)?  The CLI says so in the environment,
 * which getenv() finds only once libc has set environ: a sanitizer's
 * start-up runs first (the program's preinit_array) and calls our
 * wrappers (sigaction).  An answer taken then, kept, was "no", and under
 * qemu-i386 a batch gave text pages back without exec (textprot.c).
 */
int ftrace_cpu_emulated(void)
{
	extern char **environ;
	static int known = -1;

	if (known < 0 && arch_cpu_emulated())
		known = 1;
	if (known < 0 && environ)
		known = getenv("FNTRACE_EMULATED") != NULL;
	return known > 0;
}

int ftrace_sync_init(void)
{
	static int ready;

	if (ready)
		return 0;
	if (!getenv("FNTRACE_NO_MEMBARRIER") && !ftrace_cpu_emulated() &&
	    membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE) == 0) {
		use_membarrier = 1;
	} else {
		if (install_sync_signal())
			return -1;
		ft_debug("membarrier %s: syncing threads with signal %d",
			 ftrace_cpu_emulated() ? "does not reach an emulated CPU" : "unavailable",
			 sync_signal);
	}
	ready = 1;
	return 0;
}

/*
 * A thread asleep in ppoll() and the like with every signal blocked for
 * the wait (sigmask.c) runs no text of the program's until it wakes: it
 * is counted as synced, unsignalled, so that no sync signal ends a wait
 * the program made proof against signals (EINTR).  On waking it leaves
 * the register first, then holds while the others are parked, as they
 * hold in the handler: the syncer, which parks before reading the
 * register, sees it in one or finds it parked in the other.
 */
int ftrace_sync_wait_begin(void)
{
	pid_t self = syscall(SYS_gettid);

	for (int i = 0; i < MAX_WAITERS; i++) {
		pid_t free_slot = 0;

		if (atomic_compare_exchange_strong(&waiting[i], &free_slot, self))
			return i + 1;
	}
	return 0;
}

void ftrace_sync_wait_end(int slot)
{
	int saved = errno;

	atomic_store(&waiting[slot - 1], 0);
	while (atomic_load(&parked))
		sched_yield();
	errno = saved;
}

static int is_waiting(pid_t tid)
{
	for (int i = 0; i < MAX_WAITERS; i++)
		if (atomic_load(&waiting[i]) == tid)
			return 1;
	return 0;
}

/* Signal every other thread; their ids go to tids, their count is
 * returned.  A thread whose queue is full (it has blocked our signals
 * for long, past the wrappers) is counted too: it cannot answer, and
 * the sync must not pass it by. */
static unsigned signal_others(pid_t *tids)
{
	pid_t self = syscall(SYS_gettid);
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	unsigned sent = 0;

	while (d && (e = readdir(d)) && sent < MAX_SIGNALLED) {
		pid_t tid = atoi(e->d_name);

		if (tid > 0 && tid != self && !ft_task_foreign(tid) && !is_waiting(tid) &&
		    (send_sync(tid, sync_signal) == 0 || errno == EAGAIN))
			tids[sent++] = tid;
	}
	if (d)
		closedir(d);
	return sent;
}

static int has_answered(pid_t tid, unsigned n)
{
	for (unsigned i = 0; i < n && i < MAX_SIGNALLED; i++)
		if (answered[generation & 1][i] == tid)
			return 1;
	return 0;
}

static int silent(pid_t tid, unsigned n)
{
	return !has_answered(tid, n) && !is_waiting(tid) &&
	       syscall(SYS_tgkill, getpid(), tid, 0) == 0;
}

/* Has every signalled thread answered, or ended (and so never will)? */
static int all_accounted(const pid_t *tids, unsigned sent)
{
	unsigned n = count_of(&acks);

	for (unsigned i = 0; i < sent; i++)
		if (silent(tids[i], n))
			return 0;
	return 1;
}

/*
 * How long a sync waits, in seconds the process ran (struct patience).
 * Natively an answer takes microseconds.  qemu-user delivers a signal
 * only between two translated blocks of the thread's, and a host busy
 * with other emulators (two of make check's cross jobs) may not run that
 * thread for long: a second there made torture_dl's switches fail now and
 * then under make check, while no thread blocked the signal, and four
 * made a stop of eight threads under qemu-mips fail on a machine loaded
 * six times over.  Natively, a thread that can take a signal answers
 * within a few of the scheduler's periods however loaded the machine.
 */
static unsigned sync_patience_s(void)
{
	return ftrace_cpu_emulated() ? 10 : 2;
}

/* Why the sync gave up: which threads kept silent, the first few named. */
static void say_who(const pid_t *tids, unsigned sent)
{
	unsigned n = count_of(&acks), nr = 0;
	char who[64] = "";
	size_t len = 0;

	for (unsigned i = 0; i < sent; i++) {
		if (!silent(tids[i], n))
			continue;
		if (nr++ < 4 && len < sizeof(who))
			len += snprintf(who + len, sizeof(who) - len, "%s%d", nr > 1 ? " " : "",
					(int)tids[i]);
	}
	snprintf(failure, sizeof(failure),
		 "%u of %u threads (%s%s) did not answer the thread sync's signal %d within "
		 "%u s: a thread that blocks it with the system call itself never does",
		 nr, sent, who, nr > 4 ? " ..." : "", sync_signal, sync_patience_s());
	ft_debug("thread sync: %s", failure);
}

/*
 * The time waited, on the monotonic clock, each look at it adding at
 * most a tenth of a second: a process stopped (SIGSTOP, a debugger) in
 * the middle of a sync has its threads answer as soon as it runs again,
 * and the time it stood still must not count against them.  (The
 * waiting thread's own CPU time, which a stop does not advance either,
 * advances hardly at all while it yields to busy threads: under
 * qemu-user on a loaded machine four seconds of it took over a minute.)
 */
#define MAX_STEP_NS 100000000ull

struct patience {
	uint64_t last_ns, waited_ns;
};

static uint64_t waited_ns(struct patience *p)
{
	uint64_t now = ft_monotonic_ns(), step = now - p->last_ns;

	p->waited_ns += step < MAX_STEP_NS ? step : MAX_STEP_NS;
	p->last_ns = now;
	return p->waited_ns;
}

/*
 * qemu-user (7.2) now and then leaves a signal undelivered: one that
 * comes while the thread still runs the handler of the sync before keeps
 * pending there after the handler returns, until another signal comes;
 * the thread then waits in a system call (for ftrace_lock, say, which
 * this sync's caller holds) and never answers.  Under an emulator the
 * silent are sent the signal again, every tenth of a second: one more
 * answer is harmless (answers are checked by name), and natively no
 * signal is lost.
 */
#define RESEND_NS 100000000ull

static void resend_to_silent(const pid_t *tids, unsigned sent)
{
	unsigned n = count_of(&acks);

	for (unsigned i = 0; i < sent; i++)
		if (silent(tids[i], n))
			send_sync(tids[i], sync_signal);
}

/* A new generation: parked first, so that no answer counted for it
 * finds its thread free to go. */
static void begin_generation(int park)
{
	generation = generation % MAX_GEN + 1;
	atomic_store(&parked, park ? generation : 0);
	atomic_store(&left, generation << GEN_SHIFT);
	atomic_store(&acks, generation << GEN_SHIFT);
}

/* Answers come within microseconds: yield, do not sleep (a sleep lasts a
 * timer tick, milliseconds, on many machines).  A thread's late answer
 * to an earlier sync may count among the answers: they are checked by
 * name before the sync ends. */
static int sync_by_signals(int park)
{
	static pid_t tids[MAX_SIGNALLED];
	struct patience patience;
	unsigned sent, spins = 0;
	uint64_t next_resend = RESEND_NS;

	begin_generation(park);
	if (!sync_signal) {
		snprintf(failure, sizeof(failure), "no signal can sync the threads");
		return -1;
	}
	sent = signal_others(tids);
	patience = (struct patience){ .last_ns = ft_monotonic_ns() };
	for (;;) {
		/* Threads that ended meanwhile count as answered, now and then
		 * and once all seem to have answered. */
		if ((count_of(&acks) >= sent || ++spins % 64 == 0) &&
		    all_accounted(tids, sent))
			return 0;
		uint64_t waited = waited_ns(&patience);

		if (waited > sync_patience_s() * 1000000000ull) {
			say_who(tids, sent);
			return -1;
		}
		if (ftrace_cpu_emulated() && waited > next_resend) {
			resend_to_silent(tids, sent);
			next_resend = waited + RESEND_NS;
		}
		sched_yield();
	}
}

int ftrace_stop_others(void)
{
	if (install_sync_signal())
		return -1;
	if (sync_by_signals(1) == 0)
		return 0;
	atomic_store(&parked, 0);
	return -1;
}

/* Let them go, and wait until every one has left the handler: a stop
 * ends as it began, with none of them in the runtime's code. */
void ftrace_release_others(void)
{
	unsigned stopped = count_of(&acks);

	atomic_store(&parked, 0);
	while (count_of(&left) < stopped)
		sched_yield();
}

/*
 * A thread preempted between two instructions of a detour's entry would,
 * once they change, run half of the jump.  Every other thread is signalled
 * and its handler reads where it was; until none was inside, again,
 * yielding meanwhile (a thread there is a few instructions from leaving:
 * nothing branches into those bytes, and a call among them is the last).
 */
int ftrace_sync_pcs_outside(const uintptr_t (*ranges)[2], unsigned n)
{
	uint64_t start = ft_monotonic_ns();
	int ret;

	if (install_sync_signal())
		return -1;
	nr_guarded = n;
	atomic_store(&guarded, ranges);
	for (;;) {
		atomic_store(&seen_inside, 0);
		ret = sync_by_signals(0);
		if (ret || atomic_load(&seen_inside) == 0)
			break;
		if (ft_monotonic_ns() - start > sync_patience_s() * 1000000000ull) {
			snprintf(failure, sizeof(failure),
				 "a thread stays inside a function's first bytes");
			ret = -1;
			break;
		}
		sched_yield();
	}
	atomic_store(&guarded, NULL);
	return ret;
}

int ftrace_sync_cores(void)
{
	if (!use_membarrier)
		return sync_by_signals(0);
	if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE) == 0)
		return 0;
	snprintf(failure, sizeof(failure), "membarrier: %s", strerror(errno));
	return -1;
}
