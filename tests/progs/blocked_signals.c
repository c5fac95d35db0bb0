// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that block every signal, each calling a small call tree in a
 * loop until its input ends:
 *
 *   blocker   sigfillset() and pthread_sigmask(SIG_BLOCK) itself
 *   inherits  created while its creator blocks everything
 *   attr      created with everything blocked in its attributes
 *   signalfd  blocks everything, and pauses in poll() on a signalfd of
 *             every signal, reading any that comes
 *   sigwait   blocks everything, and pauses in sigtimedwait() for any
 *   sleepers  six that block everything and sleep until their bell
 *             rings, each woken by nothing else: four on a pipe, with
 *             every signal blocked in the wait's own mask too, in
 *             ppoll(), in __ppoll_chk() (a fortified ppoll's), in
 *             pselect() and in epoll_pwait(), one each; one in
 *             sigsuspend() with all but SIGUSR1 blocked, rung by it; one
 *             in sigwaitinfo() for SIGUSR2, rung by it; rung, each calls
 *             woken() a few times and sleeps again
 *   main      first sends itself every real-time signal it can handle,
 *             then blocks everything too, and reads stdin, ringing every
 *             bell at each line
 *
 * With "raw" as its argument one more thread blocks everything with the
 * system call, through syscall(), and ends on its own once it has seen a
 * byte on its pipe (the first line of input); with "asm" that thread
 * makes the system call with its own instruction: a thread no wrapper
 * can keep a signal free in.  Each thread prints the signals it
 * reads back as not blocked (none, natively) and whether its results
 * were right, the waiters how many signals they took (none: nobody sends
 * the program one), the sleepers only whether theirs were right; the
 * program exits 0 if all were right.
 */
#define _GNU_SOURCE
/* Where time_t is 32 bits, the 64-bit one programs move to: their waits
 * with a timeout are glibc's other names (__ppoll64, __pselect64 ...). */
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "robust.h"

#define RAW 5	/* the raw thread's place among the threads */

static volatile int stop;
static int raw_pipe[2];

KEEP long leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP long work(long x)
{
	long r = leaf(x) * 2 + leaf(x + 1);

	sink = r;
	return r;
}

/* A few calls, then a millisecond's pause (which a signal may cut
 * short): a trace a few seconds long stays small.  How many were wrong. */
static long burst(void)
{
	struct timespec ms = { 0, 1000000 };
	long wrong = 0;

	for (long i = 0; i < 10; i++)
		wrong += work(i) != 3 * i + 4;
	nanosleep(&ms, NULL);
	return wrong;
}

/* The signals this thread reads back as not blocked, as a list: none
 * natively; under qemu-user, those the emulator keeps for itself. */
static void unblocked(char *list, size_t size)
{
	sigset_t now;
	size_t len = 0;

	list[0] = 0;
	pthread_sigmask(SIG_BLOCK, NULL, &now);
	for (int sig = 1; sig <= SIGRTMAX; sig++) {
		/* (glibc keeps 32 and 33, below SIGRTMIN, for itself.) */
		if (sig == SIGKILL || sig == SIGSTOP || (sig >= 32 && sig < SIGRTMIN))
			continue;
		if (!sigismember(&now, sig) && len < size)
			len += snprintf(list + len, size - len, " %d", sig);
	}
}

KEEP void *loop(void *name)
{
	char open[256];
	long wrong = 0;

	unblocked(open, sizeof(open));
	while (!stop)
		wrong += burst();
	printf("%s: not blocked:%s; results right: %s\n", (char *)name, open,
	       wrong ? "no" : "yes");
	return wrong ? NULL : name;
}

/* The signals a waiter took. */
static long taken[2];

/* A few calls, then a millisecond's wait for any signal: in poll() on a
 * signalfd of them all (waiter 0), or in sigtimedwait() (waiter 1). */
KEEP void *waiter(void *name)
{
	struct timespec ms = { 0, 1000000 };
	int which = !strcmp(name, "sigwait"), fd;
	struct signalfd_siginfo si;
	long wrong = 0;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	fd = signalfd(-1, &all, SFD_NONBLOCK);
	while (!stop) {
		struct pollfd p = { fd, POLLIN, 0 };

		for (long i = 0; i < 10; i++)
			wrong += work(i) != 3 * i + 4;
		if (which)
			taken[1] += sigtimedwait(&all, NULL, &ms) > 0;
		else if (poll(&p, 1, 1) == 1)
			taken[0] += read(fd, &si, sizeof(si)) == sizeof(si);
	}
	printf("%s: signals taken: %ld; results right: %s\n", (char *)name, taken[which],
	       wrong ? "no" : "yes");
	return wrong ? NULL : name;
}

/* The sleepers' waits, each in its own call, and their bells: a pipe,
 * or a signal sent to the thread. */
enum { PPOLL, PPOLL_CHK, PSELECT, EPOLL_PWAIT, SIGSUSPEND, SIGWAITINFO, SLEEPERS };
static char *const sleeper_names[SLEEPERS] = { "ppoll", "ppoll_chk", "pselect", "epoll_pwait",
					       "sigsuspend", "sigwaitinfo" };
static int bell[SLEEPERS][2];
static pthread_t sleeping[SLEEPERS];
static volatile sig_atomic_t suspend_bells;

static void on_suspend_bell(int sig)
{
	suspend_bells++;
}

static int rung_by_signal(int which)
{
	return which == SIGSUSPEND || which == SIGWAITINFO;
}

/* sigsuspend() returns once a handler ran: the bell's, or it was woken
 * by another signal.  1 if the bell's. */
static int suspend_for_bell(void)
{
	sig_atomic_t before = suspend_bells;
	sigset_t all;

	sigfillset(&all);
	sigdelset(&all, SIGUSR1);
	return sigsuspend(&all) == -1 && errno == EINTR && suspend_bells != before;
}

static int wait_for_bell(void)
{
	sigset_t usr2;

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	return sigwaitinfo(&usr2, NULL) == SIGUSR2;
}

/* What a fortified ppoll() calls when it cannot tell the array's size
 * is right (declared by <poll.h> only under _FORTIFY_SOURCE). */
int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *timeout,
		const sigset_t *mask, size_t size);

/* What a sleeper calls once rung: not work(), which the workers call. */
KEEP long woken(long x)
{
	long r = leaf(x) + leaf(x + 2);

	sink = r;
	return r;
}

/* Until the bell rings, with every signal blocked: 1 then, -1 on error
 * (EINTR too: no signal can end the wait). */
static int sleep_on_bell(int which, int epoll_fd)
{
	int fd = bell[which][0], n;
	struct epoll_event ev;
	struct pollfd p = { fd, POLLIN, 0 };
	fd_set in;
	sigset_t all;

	sigfillset(&all);
	FD_ZERO(&in);
	FD_SET(fd, &in);
	switch (which) {
	case PPOLL:
		n = ppoll(&p, 1, NULL, &all);
		break;
	case PPOLL_CHK:
		n = __ppoll_chk(&p, 1, NULL, &all, sizeof(p));
		break;
	case PSELECT:
		n = pselect(fd + 1, &in, NULL, NULL, NULL, &all);
		break;
	case SIGSUSPEND:
		n = suspend_for_bell();
		break;
	case SIGWAITINFO:
		n = wait_for_bell();
		break;
	default:
		n = epoll_pwait(epoll_fd, &ev, 1, -1, &all);
	}
	return n == 1 ? 1 : -1;
}

KEEP void *sleeper(void *arg)
{
	int which = (long)arg, epoll_fd = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN };
	long wrong = 0;
	sigset_t all;
	char c;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, bell[which][0], &ev))
		wrong++;
	while (!stop && !wrong) {
		int rung = sleep_on_bell(which, epoll_fd);

		if (rung < 0 || (!rung_by_signal(which) && read(bell[which][0], &c, 1) != 1))
			wrong++;
		for (long i = 0; rung && i < 10; i++)
			wrong += woken(i) != 2 * i + 4;
	}
	printf("%s: results right: %s\n", sleeper_names[which], wrong ? "no" : "yes");
	return wrong ? NULL : sleeper_names[which];
}

/* Every sleeper wakes, once. */
static int ring(void)
{
	for (int i = 0; i < SLEEPERS; i++) {
		if (i == SIGSUSPEND || i == SIGWAITINFO) {
			if (pthread_kill(sleeping[i], i == SIGSUSPEND ? SIGUSR1 : SIGUSR2))
				return -1;
		} else if (write(bell[i][1], "x", 1) != 1) {
			return -1;
		}
	}
	return 0;
}

KEEP void *blocker(void *name)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	return loop(name);
}

/* rt_sigprocmask(SIG_BLOCK, set, NULL) made by this program's own
 * instruction, as the kernel's calling convention has it. */
static void block_by_instruction(const sigset_t *set)
{
#if defined(__x86_64__)
	register long size __asm__("r10") = _NSIG / 8;
	long ret;

	__asm__ volatile("syscall" : "=a"(ret)
			 : "0"((long)SYS_rt_sigprocmask), "D"((long)SIG_BLOCK), "S"(set), "d"(0L),
			   "r"(size)
			 : "rcx", "r11", "memory");
#elif defined(__i386__)
	long ret;

	__asm__ volatile("int $0x80" : "=a"(ret)
			 : "0"((long)SYS_rt_sigprocmask), "b"((long)SIG_BLOCK), "c"(set), "d"(0L),
			   "S"((long)(_NSIG / 8))
			 : "memory");
#elif defined(__aarch64__)
	register long nr __asm__("x8") = SYS_rt_sigprocmask;
	register long a0 __asm__("x0") = SIG_BLOCK;
	register long a1 __asm__("x1") = (long)set, a2 __asm__("x2") = 0, a3 __asm__("x3") = _NSIG / 8;

	__asm__ volatile("svc 0" : "+r"(a0) : "r"(nr), "r"(a1), "r"(a2), "r"(a3) : "memory");
#elif defined(__riscv)
	register long nr __asm__("a7") = SYS_rt_sigprocmask;
	register long a0 __asm__("a0") = SIG_BLOCK;
	register long a1 __asm__("a1") = (long)set, a2 __asm__("a2") = 0, a3 __asm__("a3") = _NSIG / 8;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(nr), "r"(a1), "r"(a2), "r"(a3) : "memory");
#elif defined(__mips__)
	register long nr __asm__("$2") = SYS_rt_sigprocmask;
	register long a0 __asm__("$4") = SIG_BLOCK;
	register long a1 __asm__("$5") = (long)set, a2 __asm__("$6") = 0, a3 __asm__("$7") = _NSIG / 8;

	__asm__ volatile("syscall" : "+r"(nr), "+r"(a3) : "r"(a0), "r"(a1), "r"(a2)
			 : "$1", "$3", "$8", "$9", "$10", "$11", "$12", "$13", "$14", "$15", "$24",
			   "$25", "hi", "lo", "memory");
#else
#error "block_by_instruction: no system call instruction for this architecture"
#endif
}

/* Blocks everything with the system call, through syscall() (reading
 * back what it set as the others do) or by its own instruction, and ends
 * when told. */
KEEP void *raw_blocker(void *name)
{
	sigset_t all, now;
	char open[256] = "";
	long wrong = 0;
	char c;

	sigfillset(&all);
	if (!strcmp(name, "asm")) {
		block_by_instruction(&all);
	} else {
		syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, _NSIG / 8);
		syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &now, _NSIG / 8);
		for (int sig = 1; sig <= SIGRTMAX; sig++)
			if (sig != SIGKILL && sig != SIGSTOP && (sig < 32 || sig >= SIGRTMIN) &&
			    !sigismember(&now, sig))
				snprintf(open + strlen(open), sizeof(open) - strlen(open), " %d", sig);
	}
	printf("%s: blocking\n", (char *)name);
	fcntl(raw_pipe[0], F_SETFL, O_NONBLOCK);
	while (read(raw_pipe[0], &c, 1) < 0)
		wrong += burst();
	printf("%s: not blocked:%s; results right: %s\n", (char *)name, open, wrong ? "no" : "yes");
	return wrong ? NULL : name;
}

static volatile sig_atomic_t delivered;

static void count_own(int sig)
{
	delivered++;
}

/* The program's own real-time signals, the one the runtime syncs threads
 * with among them: each it can handle reaches its handler, once. */
static void own_signals(void)
{
	struct sigaction sa = { .sa_handler = count_own };
	int handled = 0;

	sigemptyset(&sa.sa_mask);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		if (sigaction(sig, &sa, NULL) == 0) {
			handled++;
			raise(sig);
		}
	printf("main: own signals delivered: %s\n", delivered == handled ? "all" : "not all");
}

static int start(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), char *name)
{
	if (pthread_create(t, attr, fn, name) == 0)
		return 0;
	fprintf(stderr, "cannot start %s\n", name);
	return -1;
}

static int start_sleepers(void)
{
	struct sigaction sa = { .sa_handler = on_suspend_bell };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		return -1;
	for (long i = 0; i < SLEEPERS; i++)
		if (pipe(bell[i]) || start(&sleeping[i], NULL, sleeper, (void *)i))
			return -1;
	return 0;
}

static int start_all(pthread_t *t, char *raw)
{
	sigset_t all, old;
	pthread_attr_t attr;

	sigfillset(&all);
	if (start(&t[0], NULL, blocker, "blocker"))
		return -1;
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (start(&t[1], NULL, loop, "inherits"))
		return -1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setsigmask_np(&attr, &all);
	if (start(&t[2], &attr, loop, "attr"))
		return -1;
	pthread_attr_destroy(&attr);
	if (start(&t[3], NULL, waiter, "signalfd") || start(&t[4], NULL, waiter, "sigwait"))
		return -1;
	if (raw && (pipe(raw_pipe) || start(&t[RAW], NULL, raw_blocker, raw)))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	char *raw = argc > 1 ? argv[1] : NULL;
	void *right = (void *)1;
	char open[256];
	pthread_t t[RAW + 1];
	sigset_t all;
	int ok = 1;
	char c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	own_signals();
	if (start_all(t, raw))
		return 1;
	/* The sleepers start with every signal blocked: a bell rung before
	 * they wait stays pending for their wait. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (start_sleepers())
		return 1;
	/* Each line rings the bells; the first also ends the raw thread;
	 * end of input: every thread. */
	while (read(0, &c, 1) == 1) {
		if (c == '\n' && ring())
			return 1;
		if (raw && c == '\n' && raw_pipe[1] >= 0) {
			if (write(raw_pipe[1], "x", 1) != 1 || pthread_join(t[RAW], &right))
				return 1;
			ok &= right != NULL;
			raw_pipe[1] = -1;
		}
	}
	stop = 1;
	if (ring())
		return 1;
	for (int i = 0; i < RAW; i++) {
		pthread_join(t[i], &right);
		ok &= right != NULL;
	}
	for (int i = 0; i < SLEEPERS; i++) {
		pthread_join(sleeping[i], &right);
		ok &= right != NULL;
	}
	unblocked(open, sizeof(open));
	printf("main: not blocked:%s\n", open);
	return ok ? 0 : 1;
}
