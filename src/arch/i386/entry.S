/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i386 entry points of the runtime: ftrace_caller with its two patchable
 * sites, return_to_handler, and the mcount stubs.
 *
 * An enabled call site:
 *
 *   fentry, patchable entry (SITE_ENTRY)      -pg (SITE_FRAME)
 *   func:  call ftrace_caller                 func:  push %ebp
 *          ...body...                                mov  %esp,%ebp
 *                                                    ...
 *                                                    call ftrace_caller_frame
 *
 * On entry to ftrace_caller the parent's return address is at 4(%esp),
 * just above ours; from a -pg site it is at 4(%ebp), above the frame the
 * traced function set up (for main(), SITE_FRAME_REALIGNED, see
 * ftrace_caller_realigned).  Either way %eax, saved first, gets its
 * address (retp) and the common code runs.
 *
 * Every caller-saved register is kept: eax, ecx and edx may carry
 * arguments (regparm, fastcall, and gcc's local functions with -mfentry).
 * The tracers are cdecl C, arguments on the stack; glibc's i386 code
 * wants the stack 16-byte aligned at a call.  The C runs compiled with
 * -mgeneral-regs-only: the x87 and SSE registers stay untouched.
 *
 * ftrace_caller's frame, with %ebp pointing at its base:
 *
 *   8(%ebp)   self_ret: where the traced function resumes
 *   4(%ebp)   the caller's %eax
 *   0(%ebp)   the caller's %ebp
 *  -4(%ebp)   %ecx,  -8(%ebp) %edx,  -12(%ebp) retp
 *   ...       then three argument words at the aligned %esp
 */
	.text

	.p2align 4
	.globl	ftrace_caller_frame
	.hidden	ftrace_caller_frame
	.type	ftrace_caller_frame, @function
ftrace_caller_frame:
	.cfi_startproc
	pushl	%eax
	.cfi_adjust_cfa_offset 4
	leal	4(%ebp), %eax
	jmp	1f
	.cfi_endproc
	.size	ftrace_caller_frame, . - ftrace_caller_frame

/*
 * main() realigns its stack before "push %ebp", through %ecx (the DRAP):
 *
 *   lea 0x4(%esp),%ecx; and $-16,%esp; push -0x4(%ecx); push %ebp; ...
 *
 * so 4(%ebp) is a copy of the return address, and main returns through
 * the original at -4(%ecx), 0 to 12 bytes above the copy.  Nothing in
 * its prologue after that changes %ecx, and the -pg call ends the
 * prologue: %ecx still points there.  Checked all the same (in range,
 * same return address); if not, the copy is all there is.
 */
	.p2align 4
	.globl	ftrace_caller_realigned
	.hidden	ftrace_caller_realigned
	.type	ftrace_caller_realigned, @function
ftrace_caller_realigned:
	.cfi_startproc
	pushl	%eax
	.cfi_adjust_cfa_offset 4
	pushl	%ecx
	.cfi_adjust_cfa_offset 4
	leal	-4(%ecx), %eax
	subl	%ebp, %ecx
	subl	$12, %ecx		/* the slot is 8 to 20 bytes above %ebp */
	cmpl	$12, %ecx
	ja	2f
	movl	(%eax), %ecx
	cmpl	4(%ebp), %ecx
	je	3f
2:
	leal	4(%ebp), %eax
3:
	popl	%ecx
	.cfi_adjust_cfa_offset -4
	jmp	1f
	.cfi_endproc
	.size	ftrace_caller_realigned, . - ftrace_caller_realigned

	.p2align 4
	.globl	ftrace_caller
	.hidden	ftrace_caller
	.type	ftrace_caller, @function
ftrace_caller:
	.cfi_startproc
	pushl	%eax
	.cfi_adjust_cfa_offset 4
	leal	8(%esp), %eax
1:
	pushl	%ebp
	.cfi_adjust_cfa_offset 4
	.cfi_offset %ebp, -12
	movl	%esp, %ebp
	.cfi_def_cfa_register %ebp
	pushl	%ecx
	pushl	%edx
	pushl	%eax
	andl	$-16, %esp
	subl	$16, %esp

	/* tracer(self_ret, parent_ip, retp): self_ret is where the traced
	 * function resumes, which names its call site. */
	movl	8(%ebp), %ecx
	movl	%ecx, 0(%esp)
	movl	(%eax), %ecx
	movl	%ecx, 4(%esp)
	movl	%eax, 8(%esp)

	/*
	 * ftrace_call: a 5-byte nop, or "call <tracer>" while a tracer with a
	 * callback is on.  It sits inside one aligned 8-byte word so that it
	 * can be rewritten by a single store.
	 */
	.p2align 3
	.globl	ftrace_call
	.hidden	ftrace_call
ftrace_call:
	.byte	0x3e, 0x8d, 0x74, 0x26, 0x00

	/* A cdecl callee owns its argument words: set them again. */
	movl	8(%ebp), %ecx
	movl	%ecx, 0(%esp)
	movl	-12(%ebp), %ecx
	movl	%ecx, 4(%esp)

	/*
	 * ftrace_graph_call: a 5-byte nop, or "call prepare_ftrace_return"
	 * while the function graph tracer is on, with (self_ret, retp).
	 */
	.p2align 3
	.globl	ftrace_graph_call
	.hidden	ftrace_graph_call
ftrace_graph_call:
	.byte	0x3e, 0x8d, 0x74, 0x26, 0x00

	movl	-4(%ebp), %ecx
	movl	-8(%ebp), %edx
	movl	%ebp, %esp
	popl	%ebp
	.cfi_def_cfa %esp, 8
	.cfi_restore %ebp
	popl	%eax
	.cfi_adjust_cfa_offset -4
	ret
	.cfi_endproc
	.size	ftrace_caller, . - ftrace_caller

/*
 * A graph-traced function returns here instead of to its parent: its
 * return slot held our address, and %esp is now above that slot (just
 * above, or past the arguments a "ret $n" popped: retslot.c finds it).
 * Save the return registers (edx:eax; st(0) is left alone, as the C side
 * never touches the x87 stack), let the C side pop the shadow stack and
 * give back the real return address, and go there.  %ecx carries no
 * return value: it takes that address.
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
	pushl	%eax
	pushl	%edx
	pushl	%ebp
	movl	%esp, %ebp
	andl	$-16, %esp
	subl	$16, %esp
	leal	12(%ebp), %ecx			/* %esp as the return left it */
	movl	%ecx, 0(%esp)
	call	i386_return_slot
	movl	%eax, 4(%esp)			/* the slot the return came from */
	movl	8(%ebp), %eax
	movl	%eax, 0(%esp)			/* the return value */
	call	ftrace_return_to_handler
	movl	%eax, %ecx
	movl	%ebp, %esp
	popl	%ebp
	popl	%edx
	popl	%eax
	jmp	*%ecx
	.size	return_to_handler, . - return_to_handler

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
