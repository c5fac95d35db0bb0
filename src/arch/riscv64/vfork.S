/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfork(), in front of glibc's: the runtime's state put aside around the
 * system call (core/vfork.c).  The return address is in ra, a register
 * of each process's own; it goes on the stack only around the calls,
 * never across the system call, after which the child has used the
 * stack.  riscv64 has no vfork system call: clone with glibc's flags.
 *
 *   call ft_vfork_enter
 *   clone(CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0, 0)
 *   child:  return 0
 *   parent: return ft_vfork_leave(a0)
 */
#include <sys/syscall.h>

#define VFORK_FLAGS 0x4111	/* CLONE_VM | CLONE_VFORK | SIGCHLD */

	.text
	.p2align 2
	.globl	vfork
	.type	vfork, @function
vfork:
	.cfi_startproc
	addi	sp, sp, -16
	.cfi_adjust_cfa_offset 16
	sd	ra, 8(sp)
	.cfi_rel_offset ra, 8
	call	ft_vfork_enter
	ld	ra, 8(sp)
	.cfi_restore ra
	addi	sp, sp, 16
	.cfi_adjust_cfa_offset -16
	li	a0, VFORK_FLAGS
	li	a1, 0
	li	a2, 0
	li	a3, 0
	li	a4, 0
	li	a7, SYS_clone
	ecall
	beqz	a0, 1f
	addi	sp, sp, -16
	.cfi_adjust_cfa_offset 16
	sd	ra, 8(sp)
	.cfi_rel_offset ra, 8
	call	ft_vfork_leave
	ld	ra, 8(sp)
	.cfi_restore ra
	addi	sp, sp, 16
	.cfi_adjust_cfa_offset -16
1:	ret
	.cfi_endproc
	.size	vfork, . - vfork

	.section .note.GNU-stack, "", @progbits
