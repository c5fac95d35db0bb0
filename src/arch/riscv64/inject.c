// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64: calling a function inside a thread stopped under ptrace.
 *
 *   pc = func, a0..a3 = args, ra = 0: the call returns to address 0 and
 *   ends in a SIGSEGV there, where a0 holds the result.
 *
 * Registers go through PTRACE_GETREGSET/SETREGSET with NT_PRSTATUS (riscv
 * has no PTRACE_GETREGS).  A thread stopped in an interrupted system call
 * needs no care of ours: riscv's signal code rewinds pc to the ecall and
 * puts the first argument back in a0 before the thread stops, so the
 * registers saved here restart the call when they are put back.  A signal
 * that interrupts the wait (the caller's time limit) stops the thread
 * where it is and restores it all the same: the call is abandoned.
 */
#include "../arch.h"

#include <asm/ptrace.h>
#include <elf.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

static int get_regs(pid_t tid, struct user_regs_struct *r)
{
	struct iovec iov = { r, sizeof(*r) };

	return ptrace(PTRACE_GETREGSET, tid, (void *)NT_PRSTATUS, &iov) ? -1 : 0;
}

static int set_regs(pid_t tid, const struct user_regs_struct *r)
{
	struct iovec iov = { (void *)r, sizeof(*r) };

	return ptrace(PTRACE_SETREGSET, tid, (void *)NT_PRSTATUS, &iov) ? -1 : 0;
}

uintptr_t arch_inject_stack(pid_t tid)
{
	struct user_regs_struct r;

	return get_regs(tid, &r) ? 0 : r.sp;
}

/* The thread's pc, its registers read into regs (inject_run_to_zero). */
static int read_pc(pid_t tid, void *regs, uintptr_t *pc)
{
	struct user_regs_struct *r = regs;

	if (get_regs(tid, r))
		return -1;
	*pc = r->pc;
	return 0;
}

int arch_inject_call(pid_t tid, uintptr_t func, const uintptr_t *args, unsigned nargs,
		     uintptr_t sp, uintptr_t *ret)
{
	struct user_regs_struct saved, r;
	unsigned long *a[] = { &r.a0, &r.a1, &r.a2, &r.a3 };
	int err;

	if (nargs > 4 || get_regs(tid, &saved))
		return -1;
	r = saved;
	for (unsigned i = 0; i < nargs; i++)
		*a[i] = args[i];
	/* riscv has no red zone; 16-byte alignment is the ABI's. */
	r.sp = sp & ~(uintptr_t)15;
	r.pc = func;
	r.ra = 0;
	if (set_regs(tid, &r))
		return -1;
	err = inject_run_to_zero(tid, read_pc, &r);
	*ret = r.a0;
	return set_regs(tid, &saved) || err ? -1 : 0;
}
