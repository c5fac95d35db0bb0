/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfork(), in front of glibc's: the runtime's state put aside around the
 * system call (core/vfork.c).  The child returns first and its calls
 * write over this function's return address on the stack they share: the
 * address is kept in %ecx, which the system call preserves, as glibc's
 * vfork keeps it, and pushed back for each to return.
 *
 *   call ft_vfork_enter
 *   pop %ecx; vfork; push %ecx
 *   child:  return 0
 *   parent: return ft_vfork_leave(%eax)
 */
#include <sys/syscall.h>

	.text
	.p2align 4
	.globl	vfork
	.type	vfork, @function
vfork:
	.cfi_startproc
	subl	$12, %esp
	.cfi_adjust_cfa_offset 12
	call	ft_vfork_enter
	addl	$12, %esp
	.cfi_adjust_cfa_offset -12
	popl	%ecx
	.cfi_adjust_cfa_offset -4
	.cfi_register eip, ecx
	movl	$SYS_vfork, %eax
	int	$0x80
	pushl	%ecx
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset eip, 0
	testl	%eax, %eax
	jz	1f
	subl	$8, %esp
	.cfi_adjust_cfa_offset 8
	pushl	%eax
	.cfi_adjust_cfa_offset 4
	call	ft_vfork_leave
	addl	$12, %esp
	.cfi_adjust_cfa_offset -12
1:	ret
	.cfi_endproc
	.size	vfork, . - vfork

	.section .note.GNU-stack, "", @progbits
