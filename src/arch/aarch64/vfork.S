/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfork(), in front of glibc's: the runtime's state put aside around the
 * system call (core/vfork.c).  The return address is in x30, a register
 * of each process's own; it goes on the stack only around the calls,
 * never across the system call, after which the child has used the
 * stack.  aarch64 has no vfork system call: clone with glibc's flags.
 *
 *   bl ft_vfork_enter
 *   clone(CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0, 0)
 *   child:  return 0
 *   parent: return ft_vfork_leave(x0)
 */
#include <sys/syscall.h>

#define VFORK_FLAGS 0x4111	/* CLONE_VM | CLONE_VFORK | SIGCHLD */

	.text
	.p2align 2
	.globl	vfork
	.type	vfork, %function
vfork:
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_adjust_cfa_offset 16
	.cfi_rel_offset x29, 0
	.cfi_rel_offset x30, 8
	mov	x29, sp
	bl	ft_vfork_enter
	ldp	x29, x30, [sp], #16
	.cfi_adjust_cfa_offset -16
	.cfi_restore x29
	.cfi_restore x30
	mov	x0, #VFORK_FLAGS
	mov	x1, xzr
	mov	x2, xzr
	mov	x3, xzr
	mov	x4, xzr
	mov	x8, #SYS_clone
	svc	#0
	cbz	x0, 1f
	stp	x29, x30, [sp, #-16]!
	.cfi_adjust_cfa_offset 16
	.cfi_rel_offset x29, 0
	.cfi_rel_offset x30, 8
	mov	x29, sp
	bl	ft_vfork_leave
	ldp	x29, x30, [sp], #16
	.cfi_adjust_cfa_offset -16
	.cfi_restore x29
	.cfi_restore x30
1:	ret
	.cfi_endproc
	.size	vfork, . - vfork

	.section .note.GNU-stack, "", %progbits
