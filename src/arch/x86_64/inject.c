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
 *
 * One restart the registers cannot bring back: a sleep (nanosleep, poll
 * with a timeout ...) resumes through restart_syscall and the thread's
 * restart block, which the first nanosleep of our call resets, and the
 * sleep would end at once with EINTR.  That system call is made again
 * from the start instead, its arguments still in their registers:
 *
 *   interrupted:  rip -> after "syscall"   rax = -ERESTART_RESTARTBLOCK
 *   resumed:      rip -> "syscall" (0f 05) rax = orig_rax, orig_rax = -1
 *
 * A relative sleep then lasts its whole time again, longer, never shorter
 * (glibc's sleep() passes one timespec as request and remainder: the
 * kernel left the time still to sleep in it, and it sleeps just that).
 *
 * The vector registers are saved and put back too (the whole XSAVE area):
 * a thread stopped in the middle of its own code may hold live values in
 * %xmm and %ymm, which dlopen()'s string functions overwrite.  Without
 * that, xz -T2 attached and detached wrote a wrong stream 3 runs in 4.
 */
#include "../arch.h"

#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>

uintptr_t arch_inject_stack(pid_t tid)
{
	struct user_regs_struct r;

	return ptrace(PTRACE_GETREGS, tid, NULL, &r) ? 0 : r.rsp;
}

/* The thread's pc, its registers read into regs (inject_run_to_zero). */
static int read_pc(pid_t tid, void *regs, uintptr_t *pc)
{
	struct user_regs_struct *r = regs;

	if (ptrace(PTRACE_GETREGS, tid, NULL, r))
		return -1;
	*pc = r->rip;
	return 0;
}

#define ERESTART_RESTARTBLOCK 516	/* the kernel's; not in uapi headers */

static void restart_from_scratch(struct user_regs_struct *r)
{
	if ((long long)r->orig_rax < 0 || (long long)r->rax != -ERESTART_RESTARTBLOCK)
		return;
	r->rax = r->orig_rax;
	r->orig_rax = -1;
	r->rip -= 2;
}

/* The thread's x87, SSE and AVX state, as the kernel's XSAVE area. */
struct vector_state {
	struct iovec io;
	unsigned char area[16384];
};

static int save_vectors(pid_t tid, struct vector_state *v)
{
	v->io = (struct iovec){ v->area, sizeof(v->area) };
	return ptrace(PTRACE_GETREGSET, tid, (void *)NT_X86_XSTATE, &v->io) ? -1 : 0;
}

static int restore_vectors(pid_t tid, struct vector_state *v)
{
	return ptrace(PTRACE_SETREGSET, tid, (void *)NT_X86_XSTATE, &v->io) ? -1 : 0;
}

int arch_inject_call(pid_t tid, uintptr_t func, const uintptr_t *args, unsigned nargs,
		     uintptr_t sp, uintptr_t *ret)
{
	static const size_t arg_regs[] = {
		offsetof(struct user_regs_struct, rdi), offsetof(struct user_regs_struct, rsi),
		offsetof(struct user_regs_struct, rdx), offsetof(struct user_regs_struct, rcx),
	};
	static struct vector_state vectors;
	struct user_regs_struct saved, r;
	int err;

	if (nargs > 4 || ptrace(PTRACE_GETREGS, tid, NULL, &saved) || save_vectors(tid, &vectors))
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
	err = inject_run_to_zero(tid, read_pc, &r);
	*ret = r.rax;
	restart_from_scratch(&saved);
	err |= restore_vectors(tid, &vectors);
	return ptrace(PTRACE_SETREGS, tid, NULL, &saved) || err ? -1 : 0;
}

/*
 * A breakpoint in the thread's debug registers: DR0 holds the address,
 * DR7's bit 0 enables it for this thread (its R/W and LEN bits 0: on
 * execution).  The kernel keeps debug registers per thread, so no other
 * thread stops there, and the text is not written.  The trap comes before
 * the instruction runs, with %rip at it and DR6's bit 0 set.
 */
#define DEBUG_REG(i) ((void *)(offsetof(struct user, u_debugreg) + (i) * sizeof(long)))

int arch_hw_break(pid_t tid, uintptr_t addr)
{
	if (ptrace(PTRACE_POKEUSER, tid, DEBUG_REG(7), (void *)0) ||
	    ptrace(PTRACE_POKEUSER, tid, DEBUG_REG(6), (void *)0))
		return -1;
	if (!addr)
		return 0;
	return ptrace(PTRACE_POKEUSER, tid, DEBUG_REG(0), (void *)addr) ||
	       ptrace(PTRACE_POKEUSER, tid, DEBUG_REG(7), (void *)1) ? -1 : 0;
}

int arch_hw_break_hit(pid_t tid)
{
	long dr6;

	errno = 0;
	dr6 = ptrace(PTRACE_PEEKUSER, tid, DEBUG_REG(6), NULL);
	return errno == 0 && (dr6 & 1);
}
