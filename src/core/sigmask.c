// SPDX-License-Identifier: GPL-2.0
/*
 * Two signals must reach the runtime's handlers in every thread, however
 * the program blocks signals:
 *
 *   SIGTRAP      a thread that blocks it and runs into one of our
 *                breakpoints is killed by the kernel, whatever the handler
 *   the sync     where threads are synced by a signal (sync.c), a thread
 *   signal       that blocks it never answers, and no live patch can be
 *                made while it runs
 *
 * So the wrappers of sigprocmask(), pthread_sigmask(), of the same
 * system call made through syscall(), of pthread_attr_setsigmask_np() and
 * of a handler's sa_mask take both out of every set that would block them
 * (the waits that take a mask for their time, sigsuspend(), ppoll() and
 * the like, count a thread whose mask blocks the sync signal as synced
 * instead), and those of signalfd() and the sigwait() family out of
 * every set that would take them (xz's
 * threads block every signal; a thread created while its creator blocks
 * everything inherits the mask as the kernel has it, without them).  The
 * program reads back what it asked: a thread remembers whether it
 * blocked each of the two, and until it says, one reads as blocked where
 * its neighbour (the signal numbered one below) is, as sets that block
 * one block the other, and as a thread inherits its creator's mask.
 * Threads that blocked them before the runtime came (attach) are found
 * by ftrace_traps_blocked(), and the patcher avoids traps then; one that
 * blocks the sync signal with its own system call instruction makes a
 * sync fail, and the patch is undone (patch.c).
 */
#include "args.h"
#include "ftrace.h"
#include "raw_syscall.h"
#include "sigmask.h"
#include "sync.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <time.h>

enum { KEPT = 2 };

/* Per kept signal: has this thread said whether it blocks it, and what. */
static __thread unsigned char said[KEPT], blocks[KEPT];

static void kept_signals(int sig[KEPT])
{
	sig[0] = SIGTRAP;
	sig[1] = ftrace_sync_signal_kept();
}

static int neighbour(int sig)
{
	return sig == SIGRTMIN ? sig + 1 : sig - 1;
}

static void remove_kept(sigset_t *set)
{
	int sig[KEPT];

	kept_signals(sig);
	for (int i = 0; i < KEPT; i++)
		if (sig[i])
			sigdelset(set, sig[i]);
}

const struct sigaction *ft_handler_mask_free(const struct sigaction *act,
					     struct sigaction *copy)
{
	if (!act)
		return act;
	*copy = *act;
	remove_kept(&copy->sa_mask);
	return copy;
}

static const sigset_t *without_kept(int how, const sigset_t *set, sigset_t *copy)
{
	if (!set || how == SIG_UNBLOCK)
		return set;
	*copy = *set;
	remove_kept(copy);
	return copy;
}

/* What the thread now says of signal i, given what it read before. */
static void remember(int i, int sig, int how, const sigset_t *set, int was)
{
	int now = was;

	if (!set)
		return;
	if (how == SIG_SETMASK)
		now = sigismember(set, sig) == 1;
	else if (sigismember(set, sig) == 1)
		now = how == SIG_BLOCK;
	said[i] = 1;
	blocks[i] = now;
}

/*
 * setcontext() and swapcontext() set the next context's mask with the
 * system call: they are given a copy without the kept signals, and the
 * thread says what the program set.  (A context saved by swapcontext() or
 * getcontext() holds the kernel's mask, without them: switched back to,
 * it unblocks them in the program's view too.)
 */
const ucontext_t *ft_context_mask_free(const ucontext_t *uc, ucontext_t *copy)
{
	int sig[KEPT];

	if (!uc)
		return uc;
	*copy = *uc;
	remove_kept(&copy->uc_sigmask);
	kept_signals(sig);
	for (int i = 0; i < KEPT; i++)
		if (sig[i])
			remember(i, sig[i], SIG_SETMASK, &uc->uc_sigmask, 0);
	return copy;
}

/* The mask the kernel had (prev) becomes the one the program set. */
static void program_view(int how, const sigset_t *set, sigset_t *prev)
{
	int sig[KEPT];

	kept_signals(sig);
	for (int i = 0; i < KEPT; i++) {
		int was;

		if (!sig[i])
			continue;
		was = said[i] ? blocks[i] : sigismember(prev, neighbour(sig[i])) == 1;
		remember(i, sig[i], how, set, was);
		if (was)
			sigaddset(prev, sig[i]);
	}
}

typedef int (*sigmask_fn)(int, const sigset_t *, sigset_t *);

/* Both wrappers: the real call's result (-1 and errno, or an error
 * number), the program's view in old. */
static int set_mask(sigmask_fn real, int how, const sigset_t *set, sigset_t *old)
{
	sigset_t copy, prev;
	int ret = real(how, without_kept(how, set, &copy), &prev);

	if (ret)
		return ret;
	program_view(how, set, &prev);
	if (old)
		*old = prev;
	return 0;
}

FT_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	REAL(sigmask_fn, "sigprocmask");
	return set_mask(real, how, set, old);
}

FT_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	REAL(sigmask_fn, "pthread_sigmask");
	return set_mask(real, how, set, old);
}

/*
 * syscall(SYS_rt_sigprocmask, how, set, old, size), as a thread that
 * will not be interrupted may block every signal: glibc's sigset_t
 * begins with the kernel's set, the size it gives (_NSIG / 8).  A set of
 * another size, or one that cannot be read, goes to the kernel as it
 * came, for the kernel's answer.  The old set is the kernel's to write
 * (EFAULT, the mask changed all the same), then made the program's view.
 */
static long raw_set_mask(const long *a)
{
	sigset_t set, copy, prev;
	const sigset_t *want = NULL;
	size_t size = a[3];
	long b[6], ret;

	memcpy(b, a, sizeof(b));
	sigemptyset(&set);
	if (a[1]) {
		if (ft_args_read(a[1], (char *)&set, size) != (long)size)
			return ft_syscall_pass(SYS_rt_sigprocmask, a);
		want = &set;
		b[1] = (long)without_kept(a[0], want, &copy);
	}
	sigemptyset(&prev);
	b[2] = a[2] ? a[2] : (long)&prev;
	ret = ft_syscall_pass(SYS_rt_sigprocmask, b);
	if (ret)
		return ret;
	memcpy(&prev, (void *)b[2], size);
	program_view(a[0], want, &prev);
	if (a[2])
		memcpy((void *)a[2], &prev, size);
	return 0;
}

int ft_raw_sigmask(long nr, const long *a, long *ret)
{
	if (nr != SYS_rt_sigprocmask || (size_t)a[3] != _NSIG / 8)
		return 0;
	*ret = raw_set_mask(a);
	return 1;
}

/* A thread created with a mask of its own: glibc sets it with the system
 * call, past the wrappers. */
FT_EXPORT int pthread_attr_setsigmask_np(pthread_attr_t *attr, const sigset_t *set)
{
	typedef int (*attr_fn)(pthread_attr_t *, const sigset_t *);
	sigset_t copy;

	REAL(attr_fn, "pthread_attr_setsigmask_np");
	return real(attr, without_kept(SIG_SETMASK, set, &copy));
}

/*
 * A thread that waits for signals, through a signalfd or sigwait, takes
 * any pending signal of its set, blocked or not: the sync signal too, which
 * would never reach our handler.
 */
FT_EXPORT int signalfd(int fd, const sigset_t *mask, int flags)
{
	typedef int (*signalfd_fn)(int, const sigset_t *, int);
	sigset_t copy;

	REAL(signalfd_fn, "signalfd");
	return real(fd, without_kept(SIG_SETMASK, mask, &copy), flags);
}

FT_EXPORT int sigwait(const sigset_t *set, int *sig)
{
	typedef int (*sigwait_fn)(const sigset_t *, int *);
	sigset_t copy;

	REAL(sigwait_fn, "sigwait");
	return real(without_kept(SIG_SETMASK, set, &copy), sig);
}

/*
 * sigwaitinfo() and sigtimedwait() end with EINTR when a handler runs
 * (glibc's sigwait() waits on): ours would end a wait the program made
 * proof against its own signals.  So the thread waits with the sync
 * signal blocked, counted as synced, as in the waits below; the signal
 * is unblocked once it runs again, after any sync in progress.
 */
struct quiet_wait {
	int slot;
	sigset_t mask;	/* the thread's, to restore */
};

static void quiet_begin(struct quiet_wait *q)
{
	int sig = ftrace_sync_signal_kept();
	sigset_t sync;

	q->slot = sig ? ftrace_sync_wait_begin() : 0;
	if (!q->slot)
		return;
	sigemptyset(&sync);
	sigaddset(&sync, sig);
	ftrace_thread_mask(SIG_BLOCK, &sync, &q->mask);
}

static int quiet_end(const struct quiet_wait *q, int ret)
{
	int saved = errno;

	if (q->slot) {
		ftrace_sync_wait_end(q->slot);
		ftrace_thread_mask(SIG_SETMASK, &q->mask, NULL);
	}
	errno = saved;
	return ret;
}

FT_EXPORT int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	typedef int (*sigwaitinfo_fn)(const sigset_t *, siginfo_t *);
	struct quiet_wait q;
	sigset_t copy;

	REAL(sigwaitinfo_fn, "sigwaitinfo");
	set = without_kept(SIG_SETMASK, set, &copy);
	quiet_begin(&q);
	return quiet_end(&q, real(set, info));
}

FT_EXPORT int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	typedef int (*sigtimedwait_fn)(const sigset_t *, siginfo_t *, const struct timespec *);
	struct quiet_wait q;
	sigset_t copy;

	REAL(sigtimedwait_fn, "sigtimedwait");
	set = without_kept(SIG_SETMASK, set, &copy);
	quiet_begin(&q);
	return quiet_end(&q, real(set, info, timeout));
}

#if __TIMESIZE == 32
/* sigtimedwait() with a 64-bit timespec, which programs built with
 * _TIME_BITS=64 call where time_t is 32 bits (see ppoll below). */
FT_EXPORT int ft_sigtimedwait64(const sigset_t *set, siginfo_t *info,
				const void *timeout) __asm__("__sigtimedwait64");

int ft_sigtimedwait64(const sigset_t *set, siginfo_t *info, const void *timeout)
{
	typedef int (*sigtimedwait64_fn)(const sigset_t *, siginfo_t *, const void *);
	sigset_t copy;

	struct quiet_wait q;

	REAL(sigtimedwait64_fn, "__sigtimedwait64");
	set = without_kept(SIG_SETMASK, set, &copy);
	quiet_begin(&q);
	return quiet_end(&q, real(set, info, timeout));
}
#endif


/*
 * sigsuspend(), ppoll(), pselect(), epoll_pwait() and epoll_pwait2() sleep
 * with a mask of their own, set for the wait: one that blocks every signal
 * would keep the sync signal from the thread for as long as it sleeps,
 * maybe for good.  Taken out of that mask, the sync signal would end the
 * wait with EINTR, which a program that blocked every signal does not
 * expect (and sigsuspend()'s caller takes for the signal it waits for).
 * So the thread sleeps with the program's mask, and is counted as synced
 * while it does (ftrace_sync_wait_begin).  It runs none of the program's
 * text until it wakes, but for a handler of a signal the mask lets in,
 * entered from the kernel, which serialises as a sync does; that handler
 * may meet a breakpoint, so SIGTRAP is let in too.  A NULL mask stays NULL
 * (the thread's, kept already); any other mask that lets the sync signal
 * in loses the kept signals, as every mask does.
 *
 * Where time_t is 32 bits (i386, mips), glibc has a second name for each
 * wait with a timeout, taking the 64-bit timespec (__ppoll64 ...), which
 * programs built with _TIME_BITS=64 call.  The timeout is passed on as
 * it came, so the two names share a body; and each is named here with
 * its symbol, not through the headers, which redirect the first name to
 * the second under _TIME_BITS=64.
 */
typedef int (*ppoll_fn)(struct pollfd *, nfds_t, const void *, const sigset_t *);
typedef int (*pselect_fn)(int, fd_set *, fd_set *, fd_set *, const void *, const sigset_t *);
typedef int (*epoll_pwait2_fn)(int, struct epoll_event *, int, const void *, const sigset_t *);

/* Does the wait's own mask keep the sync signal out?  Then the thread is
 * registered for it; with no room, the signal is kept deliverable. */
static const sigset_t *wait_mask(const sigset_t *mask, sigset_t *copy, int *slot)
{
	int sig = ftrace_sync_signal_kept();

	*slot = mask && sig && sigismember(mask, sig) ? ftrace_sync_wait_begin() : 0;
	if (!*slot)
		return without_kept(SIG_SETMASK, mask, copy);
	*copy = *mask;
	sigdelset(copy, SIGTRAP);
	return copy;
}

static int wait_done(int slot, int ret)
{
	if (slot)
		ftrace_sync_wait_end(slot);
	return ret;
}

FT_EXPORT int sigsuspend(const sigset_t *mask)
{
	typedef int (*sigsuspend_fn)(const sigset_t *);
	sigset_t copy;
	int slot;

	REAL(sigsuspend_fn, "sigsuspend");
	mask = wait_mask(mask, &copy, &slot);
	return wait_done(slot, real(mask));
}

static int ppoll_kept(ppoll_fn real, struct pollfd *fds, nfds_t n, const void *timeout,
		      const sigset_t *mask)
{
	sigset_t copy;
	int slot;

	mask = wait_mask(mask, &copy, &slot);
	return wait_done(slot, real(fds, n, timeout, mask));
}

static int pselect_kept(pselect_fn real, int n, fd_set *in, fd_set *out, fd_set *err,
			const void *timeout, const sigset_t *mask)
{
	sigset_t copy;
	int slot;

	mask = wait_mask(mask, &copy, &slot);
	return wait_done(slot, real(n, in, out, err, timeout, mask));
}

static int epoll_pwait2_kept(epoll_pwait2_fn real, int fd, struct epoll_event *events, int max,
			     const void *timeout, const sigset_t *mask)
{
	sigset_t copy;
	int slot;

	mask = wait_mask(mask, &copy, &slot);
	return wait_done(slot, real(fd, events, max, timeout, mask));
}

FT_EXPORT int ft_ppoll(struct pollfd *fds, nfds_t n, const void *timeout,
		       const sigset_t *mask) __asm__("ppoll");
FT_EXPORT int ft_pselect(int n, fd_set *in, fd_set *out, fd_set *err, const void *timeout,
			 const sigset_t *mask) __asm__("pselect");
FT_EXPORT int ft_epoll_pwait2(int fd, struct epoll_event *events, int max, const void *timeout,
			      const sigset_t *mask) __asm__("epoll_pwait2");

int ft_ppoll(struct pollfd *fds, nfds_t n, const void *timeout, const sigset_t *mask)
{
	REAL(ppoll_fn, "ppoll");
	return ppoll_kept(real, fds, n, timeout, mask);
}

int ft_pselect(int n, fd_set *in, fd_set *out, fd_set *err, const void *timeout,
	       const sigset_t *mask)
{
	REAL(pselect_fn, "pselect");
	return pselect_kept(real, n, in, out, err, timeout, mask);
}

int ft_epoll_pwait2(int fd, struct epoll_event *events, int max, const void *timeout,
		    const sigset_t *mask)
{
	REAL(epoll_pwait2_fn, "epoll_pwait2");
	return epoll_pwait2_kept(real, fd, events, max, timeout, mask);
}

#if __TIMESIZE == 32
FT_EXPORT int ft_ppoll64(struct pollfd *fds, nfds_t n, const void *timeout,
			 const sigset_t *mask) __asm__("__ppoll64");
FT_EXPORT int ft_pselect64(int n, fd_set *in, fd_set *out, fd_set *err, const void *timeout,
			   const sigset_t *mask) __asm__("__pselect64");
FT_EXPORT int ft_epoll_pwait2_time64(int fd, struct epoll_event *events, int max,
				     const void *timeout,
				     const sigset_t *mask) __asm__("__epoll_pwait2_time64");

int ft_ppoll64(struct pollfd *fds, nfds_t n, const void *timeout, const sigset_t *mask)
{
	REAL(ppoll_fn, "__ppoll64");
	return ppoll_kept(real, fds, n, timeout, mask);
}

int ft_pselect64(int n, fd_set *in, fd_set *out, fd_set *err, const void *timeout,
		 const sigset_t *mask)
{
	REAL(pselect_fn, "__pselect64");
	return pselect_kept(real, n, in, out, err, timeout, mask);
}

int ft_epoll_pwait2_time64(int fd, struct epoll_event *events, int max, const void *timeout,
			   const sigset_t *mask)
{
	REAL(epoll_pwait2_fn, "__epoll_pwait2_time64");
	return epoll_pwait2_kept(real, fd, events, max, timeout, mask);
}
#endif

/* A timeout in milliseconds, the same on every ABI: one name. */
FT_EXPORT int epoll_pwait(int fd, struct epoll_event *events, int max, int timeout,
			  const sigset_t *mask)
{
	typedef int (*epoll_pwait_fn)(int, struct epoll_event *, int, int, const sigset_t *);
	sigset_t copy;

	int slot;

	REAL(epoll_pwait_fn, "epoll_pwait");
	mask = wait_mask(mask, &copy, &slot);
	return wait_done(slot, real(fd, events, max, timeout, mask));
}

/*
 * A fortified ppoll() (_FORTIFY_SOURCE, its array's size known to the
 * compiler) calls __ppoll_chk(), which checks the size and waits in
 * glibc, past the wrapper of ppoll().
 */
FT_EXPORT int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *timeout,
			  const sigset_t *mask, size_t size)
{
	typedef int (*ppoll_chk_fn)(struct pollfd *, nfds_t, const struct timespec *,
				    const sigset_t *, size_t);
	sigset_t copy;

	int slot;

	REAL(ppoll_chk_fn, "__ppoll_chk");
	mask = wait_mask(mask, &copy, &slot);
	return wait_done(slot, real(fds, n, timeout, mask, size));
}
