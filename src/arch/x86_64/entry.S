/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64 entry points of the runtime: ftrace_caller with its two patchable
 * sites, return_to_handler, ftrace_return_caller, and the mcount stubs.
 *
 * An enabled call site (directly, or through a far-call trampoline
 * "jmp *addr(%rip)" mapped near its module):
 *
 *   fentry, patchable entry (SITE_ENTRY)      -pg (SITE_FRAME)
 *   func:  call ftrace_caller                 func:  push %rbp
 *          ...body...                                mov  %rsp,%rbp
 *                                                    call ftrace_caller_frame
 *
 * On entry to ftrace_caller the parent's return address is at 8(%rsp),
 * just above ours; from a -pg site it is at 8(%rbp), above the frame the
 * traced function set up.  Either way %r11 gets its address (retp) and
 * the common code runs: %r11 is free at a call, it carries no argument.
 *
 * The tracers run C compiled with -mgeneral-regs-only, so only the integer
 * argument registers need saving: xmm0-7 stay untouched.
 */
	.text

	.p2align 4
	.globl	ftrace_caller_frame
	.hidden	ftrace_caller_frame
	.type	ftrace_caller_frame, @function
ftrace_caller_frame:
	.cfi_startproc
	leaq	8(%rbp), %r11
	jmp	1f
	.cfi_endproc
	.size	ftrace_caller_frame, . - ftrace_caller_frame

	.p2align 4
	.globl	ftrace_caller
	.hidden	ftrace_caller
	.type	ftrace_caller, @function
ftrace_caller:
	.cfi_startproc
	leaq	8(%rsp), %r11
1:
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	/* A -pg site comes after "push %rbp": the stack may be 8 off. */
	andq	$-16, %rsp
	subq	$80, %rsp
	movq	%rax, 0(%rsp)
	movq	%rcx, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rsi, 24(%rsp)
	movq	%rdi, 32(%rsp)
	movq	%r8, 40(%rsp)
	movq	%r9, 48(%rsp)
	movq	%r10, 56(%rsp)
	movq	%r11, 64(%rsp)

	/* tracer(self_ret, parent_ip, retp): self_ret is where the traced
	 * function resumes, which names its call site. */
	movq	8(%rbp), %rdi
	movq	(%r11), %rsi
	movq	%r11, %rdx

	/*
	 * ftrace_call: a 5-byte nop, or "call <tracer>" while a tracer with a
	 * callback is on.  It sits inside one aligned 8-byte word so that it
	 * can be rewritten by a single store.
	 */
	.p2align 3
	.globl	ftrace_call
	.hidden	ftrace_call
ftrace_call:
	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00

	movq	8(%rbp), %rdi
	movq	64(%rsp), %rsi
	movq	%rsp, %rdx

	/*
	 * ftrace_graph_call: a 5-byte nop, or "call prepare_ftrace_return"
	 * while the function graph tracer is on; the C function is our
	 * ftrace_graph_caller, its arguments (self_ret, retp, the saved
	 * registers: arch_arg_regs) are set above.
	 */
	.p2align 3
	.globl	ftrace_graph_call
	.hidden	ftrace_graph_call
ftrace_graph_call:
	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00

	movq	0(%rsp), %rax
	movq	8(%rsp), %rcx
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rsi
	movq	32(%rsp), %rdi
	movq	40(%rsp), %r8
	movq	48(%rsp), %r9
	movq	56(%rsp), %r10
	movq	%rbp, %rsp
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	ftrace_caller, . - ftrace_caller

/*
 * A graph-traced function returns here instead of to its parent: its
 * return slot held our address, and %rsp is now just above that slot.
 * Save the return registers, let the C side pop the shadow stack and give
 * back the real return address, and go there.
 *
 *   before:  parent: call func      func: ...; ret  --> parent
 *   after:   parent: call func      func: ...; ret  --> return_to_handler
 *                                                       --> jmp *parent
 */
	.p2align 4
	.globl	return_to_handler
	.hidden	return_to_handler
	.type	return_to_handler, @function
return_to_handler:
	pushq	%rax
	pushq	%rdx
	movq	%rax, %rdi			/* the return value */
	leaq	8(%rsp), %rsi			/* the slot the return came from */
	pushq	%rbp
	movq	%rsp, %rbp
	andq	$-16, %rsp
	call	ftrace_return_to_handler
	movq	%rbp, %rsp
	popq	%rbp
	movq	%rax, %r11
	popq	%rdx
	popq	%rax
	jmp	*%r11
	.size	return_to_handler, . - return_to_handler

/*
 * A return site of a gcc -minstrument-return=nop5 build, enabled: the
 * function returns through its own "ret", so the return stack buffer
 * stays right and nothing is hijacked.
 *
 *   before:  func: ...; leave; 0f 1f 44 00 00   nopl; ret  --> parent
 *   after:   func: ...; leave; e8 <rel32>       call ftrace_return_caller
 *                                               ret        --> parent
 *
 * A site before a tail call's jump calls ftrace_tail_caller instead
 * (src/core/returns.c tells them apart when it reads them).  The
 * function's frame is gone: 8(%rsp) is its return slot, %rax:%rdx its
 * return value.  Every caller-saved register is kept, not only those: a
 * caller built with gcc's -fipa-ra may count on the ones the function
 * leaves alone.
 */
.macro RETURN_CALLER name, tail
	.p2align 4
	.globl	\name
	.hidden	\name
	.type	\name, @function
\name:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	andq	$-16, %rsp
	movq	%rax, %rdi			/* the return value */
	leaq	16(%rbp), %rsi			/* the function's return slot */
	movl	$\tail, %edx
	call	ftrace_return_site
	leaq	-72(%rbp), %rsp
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rax
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	\name, . - \name
.endm

	RETURN_CALLER ftrace_return_caller, 0
	RETURN_CALLER ftrace_tail_caller, 1

/*
 * The floating-point argument registers, read where they are: the
 * runtime's C is built without SSE, so nothing between the traced
 * function's entry (or return) and here has changed them.
 */
	.p2align 4
	.globl	arch_fp_args
	.hidden	arch_fp_args
	.type	arch_fp_args, @function
arch_fp_args:
	movq	%xmm0, 0(%rdi)
	movq	%xmm1, 8(%rdi)
	movq	%xmm2, 16(%rdi)
	movq	%xmm3, 24(%rdi)
	movq	%xmm4, 32(%rdi)
	movq	%xmm5, 40(%rdi)
	movq	%xmm6, 48(%rdi)
	movq	%xmm7, 56(%rdi)
	ret
	.size	arch_fp_args, . - arch_fp_args

	.globl	arch_fp_retval
	.hidden	arch_fp_retval
	.type	arch_fp_retval, @function
arch_fp_retval:
	movq	%xmm0, %rax
	ret
	.size	arch_fp_retval, . - arch_fp_retval

/*
 * ftrace_stub, and the mcount of -pg / -mfentry programs.  The runtime
 * turns every call to mcount into a nop at load; a call that runs before
 * that (a constructor that ran before ours) just returns.
 */
	.p2align 4
	.globl	ftrace_stub
	.hidden	ftrace_stub
	.type	ftrace_stub, @function
	.globl	mcount
	.type	mcount, @function
	.globl	_mcount
	.type	_mcount, @function
	.globl	__fentry__
	.type	__fentry__, @function
ftrace_stub:
mcount:
_mcount:
__fentry__:
	ret
	.size	ftrace_stub, . - ftrace_stub
	.size	mcount, . - mcount
	.size	_mcount, . - _mcount
	.size	__fentry__, . - __fentry__

	.section .note.GNU-stack, "", @progbits
