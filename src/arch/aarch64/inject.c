// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64: calling a function inside a thread stopped under ptrace.
 *
 *   pc = func, x0..x3 = args, x30 = 0: the call returns to address 0 and
 *   ends in a SIGSEGV there, with the result in x0.
 *
 * Registers come and go through PTRACE_GETREGSET/SETREGSET (NT_PRSTATUS,
 * struct user_pt_regs): aarch64 has no PTRACE_GETREGS.  A thread stopped
 * inside a system call would have the kernel restart it when it resumes,
 * over our call: its syscall number (NT_ARM_SYSTEM_CALL) is set to -1
 * meanwhile, and the saved one, put back afterwards, brings that restart
 * back.  A signal that interrupts the wait (the caller's time limit)
 * stops the thread where it is and restores it all the same: the call is
 * abandoned.
 */
#include "../arch.h"

#include <elf.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <asm/ptrace.h>

#ifndef NT_ARM_SYSTEM_CALL
#define NT_ARM_SYSTEM_CALL 0x404
#endif

static int regset(int req, pid_t tid, int type, void *buf, size_t size)
{
	struct iovec iov = { buf, size };

	return ptrace(req, tid, (void *)(long)type, &iov) ? -1 : 0;
}

static int get_regs(pid_t tid, struct user_pt_regs *r)
{
	return regset(PTRACE_GETREGSET, tid, NT_PRSTATUS, r, sizeof(*r));
}

static int set_regs(pid_t tid, struct user_pt_regs *r)
{
	return regset(PTRACE_SETREGSET, tid, NT_PRSTATUS, r, sizeof(*r));
}

static int set_syscall(pid_t tid, int nr)
{
	return regset(PTRACE_SETREGSET, tid, NT_ARM_SYSTEM_CALL, &nr, sizeof(nr));
}

uintptr_t arch_inject_stack(pid_t tid)
{
	struct user_pt_regs r;

	return get_regs(tid, &r) ? 0 : r.sp;
}

/* The thread's pc, its registers read into regs (inject_run_to_zero). */
static int read_pc(pid_t tid, void *regs, uintptr_t *pc)
{
	struct user_pt_regs *r = regs;

	if (get_regs(tid, r))
		return -1;
	*pc = r->pc;
	return 0;
}

int arch_inject_call(pid_t tid, uintptr_t func, const uintptr_t *args, unsigned nargs,
		     uintptr_t sp, uintptr_t *ret)
{
	struct user_pt_regs saved, r;
	int nr = -1, err;

	if (nargs > 4 || get_regs(tid, &saved) ||
	    regset(PTRACE_GETREGSET, tid, NT_ARM_SYSTEM_CALL, &nr, sizeof(nr)))
		return -1;
	r = saved;
	for (unsigned i = 0; i < nargs; i++)
		r.regs[i] = args[i];
	r.sp = sp & ~(uintptr_t)15;
	r.pc = func;
	r.regs[30] = 0;
	if (set_syscall(tid, -1) || set_regs(tid, &r)) {
		set_syscall(tid, nr);
		return -1;
	}
	err = inject_run_to_zero(tid, read_pc, &r);
	*ret = r.regs[0];
	err |= set_regs(tid, &saved);
	return set_syscall(tid, nr) || err ? -1 : 0;
}
