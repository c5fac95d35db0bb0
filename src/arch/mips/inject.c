// SPDX-License-Identifier: GPL-2.0
/*
 * mips o32: calling a function inside a thread stopped under ptrace.
 *
 *   pc = t9 = func (a PIC callee computes gp from t9), a0..a3 = args,
 *   ra = 0, sp below the thread's with the 16 bytes of o32 argument
 *   slots: the call ends in a SIGSEGV at address 0, where v0 holds the
 *   result.
 *
 * PTRACE_GETREGS gives 38 64-bit words: r0..r31, lo, hi, epc, badvaddr,
 * status, cause.  The kernel keeps a system call to restart in r0 (the
 * number it will call again): r0 = 0 keeps it from restarting one the
 * thread was interrupted in while it runs our call; the saved registers
 * bring that restart back when the thread resumes.  A signal that
 * interrupts the wait (the caller's time limit) stops the thread where it
 * is and restores it all the same: the call is abandoned.
 */
#include "../arch.h"

#include <stdint.h>
#include <sys/ptrace.h>

enum { R_V0 = 2, R_A0 = 4, R_T9 = 25, R_SP = 29, R_RA = 31, R_EPC = 34, NR_REGS = 38 };

struct mips_regs {
	uint64_t r[NR_REGS];
};

static int get_regs(pid_t tid, struct mips_regs *r)
{
	return ptrace(PTRACE_GETREGS, tid, NULL, r) ? -1 : 0;
}

static int set_regs(pid_t tid, const struct mips_regs *r)
{
	return ptrace(PTRACE_SETREGS, tid, NULL, r) ? -1 : 0;
}

static uint64_t word(uintptr_t v)
{
	return (uint64_t)(int64_t)(int32_t)v;	/* sign-extended, as the kernel keeps them */
}

uintptr_t arch_inject_stack(pid_t tid)
{
	struct mips_regs r;

	return get_regs(tid, &r) ? 0 : (uintptr_t)r.r[R_SP];
}

/* The thread's pc, its registers read into regs (inject_run_to_zero). */
static int read_pc(pid_t tid, void *regs, uintptr_t *pc)
{
	struct mips_regs *r = regs;

	if (get_regs(tid, r))
		return -1;
	*pc = (uint32_t)r->r[R_EPC];
	return 0;
}

int arch_inject_call(pid_t tid, uintptr_t func, const uintptr_t *args, unsigned nargs,
		     uintptr_t sp, uintptr_t *ret)
{
	struct mips_regs saved, r;
	int err;

	if (nargs > 4 || get_regs(tid, &saved))
		return -1;
	r = saved;
	for (unsigned i = 0; i < nargs; i++)
		r.r[R_A0 + i] = word(args[i]);
	r.r[0] = 0;
	r.r[R_SP] = word((sp & ~(uintptr_t)7) - 32);
	r.r[R_T9] = word(func);
	r.r[R_EPC] = word(func);
	r.r[R_RA] = 0;
	r.r[R_V0] = 0;
	if (set_regs(tid, &r))
		return -1;
	err = inject_run_to_zero(tid, read_pc, &r);
	*ret = (uintptr_t)r.r[R_V0];
	return set_regs(tid, &saved) || err ? -1 : 0;
}
