// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: calling a function inside a thread stopped under ptrace.
 *
 *   %rip = func, %rdi, %rsi, ... = args, return address 0 on the stack:
 *   the call ends in a SIGSEGV at address 0, where %rax holds the result.
 *
 * orig_rax = -1 keeps the kernel from restarting a system call the thread
 * was interrupted in while it runs our call; the saved registers bring
 * that restart back when the thread resumes.  A signal that interrupts
 * the wait (the caller's time limit) stops the thread where it is and
 * restores it all the same: the call is abandoned.
 */
#include "../arch.h"

#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>

uintptr_t arch_inject_stack(pid_t tid)
{
	struct user_regs_struct r;

	return ptrace(PTRACE_GETREGS, tid, NULL, &r) ? 0 : r.rsp;
}

/* Has the call returned to address 0?  (inject_run_to_zero) */
static int at_zero(pid_t tid, void *regs)
{
	struct user_regs_struct *r = regs;

	return ptrace(PTRACE_GETREGS, tid, NULL, r) ? -1 : r->rip == 0;
}

int arch_inject_call(pid_t tid, uintptr_t func, const uintptr_t *args, unsigned nargs,
		     uintptr_t sp, uintptr_t *ret)
{
	static const size_t arg_regs[] = {
		offsetof(struct user_regs_struct, rdi), offsetof(struct user_regs_struct, rsi),
		offsetof(struct user_regs_struct, rdx), offsetof(struct user_regs_struct, rcx),
	};
	struct user_regs_struct saved, r;
	int err;

	if (nargs > 4 || ptrace(PTRACE_GETREGS, tid, NULL, &saved))
		return -1;
	r = saved;
	for (unsigned i = 0; i < nargs; i++)
		*(unsigned long long *)((char *)&r + arg_regs[i]) = args[i];
	r.rsp = (sp & ~(uintptr_t)15) - 8;
	r.rip = func;
	r.rax = 0;
	r.orig_rax = -1;
	if (ptrace(PTRACE_POKEDATA, tid, (void *)r.rsp, NULL) ||
	    ptrace(PTRACE_SETREGS, tid, NULL, &r))
		return -1;
	err = inject_run_to_zero(tid, at_zero, &r);
	*ret = r.rax;
	return ptrace(PTRACE_SETREGS, tid, NULL, &saved) || err ? -1 : 0;
}
