/*
 * Crash snapshots (tests/cases/record/crash_snapshot.sh): two workers
 * trace calls in a loop while a third thread, "crasher", makes a few
 * calls of its own, then dies of the signal named:
 *
 *   crash_threads segv|bus|ill|fpe|abrt   that signal, as a fault where
 *                                          the arch makes one (aarch64's
 *                                          division by zero does not trap:
 *                                          there SIGFPE is raised)
 *   crash_threads blocked                  SIGSEGV with SIGSEGV blocked: the
 *                                          kernel kills at once, no handler
 *                                          runs
 *   crash_threads detached                 SIGSEGV, after saying how the kernel
 *                                          holds its disposition (a system
 *                                          call no wrapper sees)
 *   crash_threads child                    a child it forks dies of SIGSEGV;
 *                                          it says so and exits 0
 *   crash_threads recover N                N faults, each caught by the
 *                                          program's own SIGSEGV handler,
 *                                          which mends the page, then exit 0
 *   crash_threads signal USR1|USR2         that signal, sent to the process
 *                                          by itself, then exit 0 if it is
 *                                          still there
 *   crash_threads handled USR1|USR2        the same, with a handler of its
 *                                          own, which says it ran
 *   crash_threads children                 says whether it has a child to
 *                                          wait() for, or a SIGCHLD pending,
 *                                          then exit 0
 *
 * Each prints what it did on stdout, flushed before the end.  With
 * CRASH_THREADS_GO=FILE in the environment, the crash (the faults of
 * recover, the child of child) waits until FILE exists: a recorder
 * attaches meanwhile.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;
static volatile int zero;	/* the workers write sink, never this */
static _Atomic int ticks[2];	/* each worker's: both must be in the ring */

__attribute__((noinline)) void worker_tick(int i)
{
	sink = i;
}

static void *worker(void *arg)
{
	_Atomic int *mine = arg;

	for (int i = 0;; i++) {
		worker_tick(i);
		(*mine)++;
		usleep(1000);
	}
	return arg;
}

/* Until each worker has ticked n times: on a busy machine one may not
 * have run yet when the other has ticked twenty. */
static void wait_ticks(int n)
{
	while (ticks[0] < n || ticks[1] < n)
		usleep(1000);
}

/* Until the file CRASH_THREADS_GO names exists, if it names one. */
static void wait_go(void)
{
	const char *go = getenv("CRASH_THREADS_GO");

	while (go && access(go, F_OK))
		usleep(10 * 1000);
}

__attribute__((noinline)) void before_crash(int i)
{
	sink = i;
}

__attribute__((noinline)) void do_segv(void)
{
	*(volatile int *)(uintptr_t)zero = 1;
}

/* A page of a file past its end. */
__attribute__((noinline)) void do_bus(void)
{
	FILE *f = tmpfile();
	volatile char *p = f ? mmap(NULL, 4096, PROT_READ, MAP_SHARED, fileno(f), 0) : MAP_FAILED;

	if (p != MAP_FAILED)
		sink = p[0];
}

__attribute__((noinline)) void do_ill(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("ud2");
#elif defined(__aarch64__)
	__asm__ volatile(".inst 0x00000000");
#else
	__builtin_trap();
#endif
}

__attribute__((noinline)) void do_fpe(void)
{
#if defined(__x86_64__) || defined(__i386__)
	sink = 7 / zero;
#else
	raise(SIGFPE);
#endif
}

__attribute__((noinline)) void do_abrt(void)
{
	abort();
}

__attribute__((noinline)) void do_blocked(void)
{
	sigset_t segv;

	sigemptyset(&segv);
	sigaddset(&segv, SIGSEGV);
	pthread_sigmask(SIG_BLOCK, &segv, NULL);
	do_segv();
}

/* The kernel's struct sigaction starts with the handler, but on mips
 * (the flags first). */
struct kernel_action {
#ifdef __mips__
	unsigned int flags;
#endif
	void *handler;
	unsigned char rest[64];
};

__attribute__((noinline)) void do_detached(void)
{
	struct kernel_action k;
	struct sigaction sa;

	syscall(SYS_rt_sigaction, SIGSEGV, NULL, &k, _NSIG / 8);
	sigaction(SIGSEGV, NULL, &sa);
	printf("SIGSEGV in the kernel: %s; as libc reads it: %s, flags %#x\n",
	       k.handler == (void *)SIG_DFL ? "default" : "a handler",
	       sa.sa_handler == SIG_DFL ? "default" : "a handler", (unsigned)sa.sa_flags);
	fflush(stdout);
	do_segv();
}

static const struct {
	const char *name;
	void (*fn)(void);
} crashes[] = {
	{ "segv", do_segv }, { "bus", do_bus }, { "ill", do_ill },
	{ "fpe", do_fpe }, { "abrt", do_abrt }, { "blocked", do_blocked },
	{ "detached", do_detached },
};

/* ---- recovering from SIGSEGV, as a GC does ---- */

static char *guarded;

static void mend(int sig, siginfo_t *si, void *uc)
{
	mprotect(guarded, 4096, PROT_READ | PROT_WRITE);
}

__attribute__((noinline)) void touch_guarded(int i)
{
	guarded[i % 4096] = (char)i;
}

static int recover(int n)
{
	struct sigaction sa = { .sa_sigaction = mend, .sa_flags = SA_SIGINFO }, old;

	guarded = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	sigaction(SIGSEGV, NULL, &old);
	printf("SIGSEGV's disposition: %s, flags %#x\n",
	       old.sa_handler == SIG_DFL ? "default" : "a handler", (unsigned)old.sa_flags);
	sigaction(SIGSEGV, &sa, &old);
	printf("replaced: %s\n", old.sa_handler == SIG_DFL ? "default" : "a handler");
	fflush(stdout);
	wait_go();
	for (int i = 0; i < n; i++) {
		mprotect(guarded, 4096, PROT_NONE);
		touch_guarded(i);
	}
	printf("recovered %d\n", n);
	return 0;
}

/* ---- a signal that takes a snapshot ---- */

static void said(int sig)
{
	static const char ran[] = "the program's handler ran\n";

	write(1, ran, sizeof(ran) - 1);
}

__attribute__((noinline)) void before_signal(int i)
{
	sink = i;
}

static int send_self(int handled, int sig)
{
	if (handled)
		signal(sig, said);
	wait_ticks(20);
	before_signal(1);
	printf("sending it\n");
	fflush(stdout);
	kill(getpid(), sig);
	printf("after the signal\n");
	return 0;
}

static void *crasher(void *arg)
{
	const char *how = arg;

	pthread_setname_np(pthread_self(), "crasher");
	wait_ticks(20);
	wait_go();
	for (int i = 0; i < 5; i++)
		before_crash(i);
	printf("crashing: %s\n", how);
	fflush(stdout);
	for (unsigned i = 0; i < sizeof(crashes) / sizeof(crashes[0]); i++)
		if (!strcmp(how, crashes[i].name))
			crashes[i].fn();
	printf("still here\n");
	exit(3);
}

static int child_crashes(void)
{
	int status = 0;
	pid_t pid;

	wait_ticks(20);
	wait_go();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NAME, "crasher");
		for (int i = 0; i < 5; i++)
			before_crash(i);
		do_segv();
		_exit(3);
	}
	waitpid(pid, &status, 0);
	printf("the child: %s\n", WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exited");
	usleep(100 * 1000);
	return 0;
}

/* What a program that never forked should find: no child, no SIGCHLD. */
static int children(void)
{
	sigset_t pending;
	pid_t p = waitpid(-1, NULL, WNOHANG);

	sigpending(&pending);
	printf("wait: %s; SIGCHLD %s\n", p < 0 && errno == ECHILD ? "no child" : "a child",
	       sigismember(&pending, SIGCHLD) ? "pending" : "not pending");
	wait_go();
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "children"))
		return children();
	for (int i = 0; i < 2; i++)
		pthread_create(&t, NULL, worker, &ticks[i]);
	if (!strcmp(argv[1], "child"))
		return child_crashes();
	if (!strcmp(argv[1], "recover"))
		return recover(argc > 2 ? atoi(argv[2]) : 1);
	if (!strcmp(argv[1], "signal") || !strcmp(argv[1], "handled"))
		return send_self(argv[1][0] == 'h', argc > 2 && !strcmp(argv[2], "USR1") ? SIGUSR1 : SIGUSR2);
	pthread_create(&t, NULL, crasher, argv[1]);
	pthread_join(t, NULL);
	return 0;
}
