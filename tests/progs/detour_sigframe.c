// SPDX-License-Identifier: GPL-2.0
/*
 * For detours (tests/cases/trace/detour_sigframe.sh), x86_64: a thread
 * stopped inside a function's first bytes by a signal whose handler is
 * still running.  held(p) reads *p in its second instruction; called
 * with NULL, it faults there, and its SIGSEGV handler says "held", waits
 * while FILE exists, points p at a 1 and returns: the read runs again.
 * Until then the thread is at the handler, but resumes at held + 1,
 * inside the bytes a detour's jump replaces: they must not change
 * meanwhile.
 *
 *   detour_sigframe FILE STOP   held(NULL) once (the wait), then calls
 *                               until STOP exists: "back ok" if every
 *                               call read its 1
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

long held(const int *p);

/* held(p): *p.  Its first 7 bytes: push %rbp (1), movslq (%rdi),%rax
 * (3), mov %rsp,%rbp (3); a detour's jump replaces the first 5. */
__asm__(".text\n"
	".globl held\n"
	".type held, @function\n"
	"held:\n"
	"	pushq	%rbp\n"
	"	movslq	(%rdi), %rax\n"
	"	movq	%rsp, %rbp\n"
	"	popq	%rbp\n"
	"	ret\n"
	".size held, . - held\n");

static const int one = 1;
static const char *hold_file;

static void on_sigsegv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	if (!hold_file)
		abort();
	write(1, "held\n", 5);
	while (access(hold_file, F_OK) == 0)
		nanosleep(&tick, NULL);
	hold_file = NULL;
	uc->uc_mcontext.gregs[REG_RDI] = (greg_t)&one;	/* the read, again */
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_sigaction = on_sigsegv, .sa_flags = SA_SIGINFO };
	long n = 0, sum;

	if (argc != 3)
		return 2;
	setvbuf(stdout, NULL, _IONBF, 0);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	hold_file = argv[1];
	sum = held(NULL);
	while (access(argv[2], F_OK) != 0)
		for (int i = 0; i < 1000; i++, n++)
			sum += held(&one);
	printf("back %s\n", sum == n + 1 ? "ok" : "wrong");
	return 0;
}
