/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfork(), in front of glibc's: the runtime's state put aside around the
 * system call (core/vfork.c).  The child returns first and its calls
 * write over this function's return address on the stack they share: the
 * address is kept in %rdi, which the system call preserves, as glibc's
 * vfork keeps it, and pushed back for each to return.
 *
 *   call ft_vfork_enter
 *   pop %rdi; vfork; push %rdi
 *   child:  return 0
 *   parent: return ft_vfork_leave(%rax)
 */
#include <sys/syscall.h>

	.text
	.p2align 4
	.globl	vfork
	.type	vfork, @function
vfork:
	.cfi_startproc
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	call	ft_vfork_enter
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	.cfi_register rip, rdi
	movl	$SYS_vfork, %eax
	syscall
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rip, 0
	testq	%rax, %rax
	jz	1f
	movq	%rax, %rdi
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	call	ft_vfork_leave
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
1:	ret
	.cfi_endproc
	.size	vfork, . - vfork

	.section .note.GNU-stack, "", @progbits
