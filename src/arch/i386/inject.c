// SPDX-License-Identifier: GPL-2.0
/*
 * i386: calling a function inside a thread stopped under ptrace (a CLI
 * built for i386: the tracer and the tracee both 32-bit).
 *
 *   %eip = func, the args cdecl on the stack, return address 0 below them:
 *   the call ends in a SIGSEGV at address 0, where %eax holds the result.
 *
 *   (sp & ~15) - 16:   arg0 arg1 ...      16-byte aligned, as glibc wants
 *                  -4: 0                  %esp at the call
 *
 * orig_eax = -1 keeps the kernel from restarting a system call the thread
 * was interrupted in while it runs our call; the saved registers bring
 * that restart back when the thread resumes.  A signal that interrupts
 * the wait (the caller's time limit) stops the thread where it is and
 * restores it all the same: the call is abandoned.
 */
#include "../arch.h"

#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#define MAX_ARGS 4

uintptr_t arch_inject_stack(pid_t tid)
{
	struct user_regs_struct r;

	return ptrace(PTRACE_GETREGS, tid, NULL, &r) ? 0 : (uintptr_t)r.esp;
}

/* The thread's pc, its registers read into regs (inject_run_to_zero). */
static int read_pc(pid_t tid, void *regs, uintptr_t *pc)
{
	struct user_regs_struct *r = regs;

	if (ptrace(PTRACE_GETREGS, tid, NULL, r))
		return -1;
	*pc = (uintptr_t)r->eip;
	return 0;
}

/* The arguments and the return address 0 onto the thread's stack. */
static int push_frame(pid_t tid, uintptr_t sp, const uintptr_t *args, unsigned nargs)
{
	uintptr_t base = (sp & ~(uintptr_t)15) - 16;

	for (unsigned i = 0; i < nargs; i++)
		if (ptrace(PTRACE_POKEDATA, tid, (void *)(base + 4 * i), (void *)args[i]))
			return -1;
	return ptrace(PTRACE_POKEDATA, tid, (void *)(base - 4), NULL) ? -1 : 0;
}

int arch_inject_call(pid_t tid, uintptr_t func, const uintptr_t *args, unsigned nargs,
		     uintptr_t sp, uintptr_t *ret)
{
	struct user_regs_struct saved, r;
	int err;

	if (nargs > MAX_ARGS || ptrace(PTRACE_GETREGS, tid, NULL, &saved))
		return -1;
	r = saved;
	r.esp = (long)((sp & ~(uintptr_t)15) - 16 - 4);
	r.eip = (long)func;
	r.eax = 0;
	r.orig_eax = -1;
	if (push_frame(tid, sp, args, nargs) || ptrace(PTRACE_SETREGS, tid, NULL, &r))
		return -1;
	err = inject_run_to_zero(tid, read_pc, &r);
	*ret = (uintptr_t)r.eax;
	return ptrace(PTRACE_SETREGS, tid, NULL, &saved) || err ? -1 : 0;
}
