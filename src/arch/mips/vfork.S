/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfork(), in front of glibc's: the runtime's state put aside around the
 * system call (core/vfork.c).  The return address is in ra, a register
 * of each process's own; it goes on the stack only around the calls,
 * never across the system call, after which the child has used the
 * stack.  As glibc's, a clone with CLONE_VM | CLONE_VFORK | SIGCHLD (18
 * on mips) and no stack of its own; a3 set says v0 is an errno.  o32 PIC:
 * gp is ours to set (callers restore their own), from bal's address.
 *
 *   ft_vfork_enter()
 *   clone(CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0, 0)
 *   child:  return 0
 *   parent: return ft_vfork_leave(a3 ? -v0 : v0)
 */
#include <sys/syscall.h>

#define VFORK_FLAGS 0x4112	/* CLONE_VM | CLONE_VFORK | SIGCHLD */
#define FRAME 32		/* o32's 16 bytes of arguments, ra, aligned */

	/* Call \func of the runtime, ra kept on the stack meanwhile. */
	.macro	CALL_OURS func
	addiu	$sp, $sp, -FRAME
	.cfi_adjust_cfa_offset FRAME
	sw	$ra, 28($sp)
	.cfi_rel_offset $ra, 28
	bal	1f
	 nop
1:	lui	$gp, %hi(_gp_disp)
	addiu	$gp, $gp, %lo(_gp_disp)
	addu	$gp, $gp, $ra
	lw	$t9, %got(\func)($gp)
	jalr	$t9
	 nop
	lw	$ra, 28($sp)
	.cfi_restore $ra
	addiu	$sp, $sp, FRAME
	.cfi_adjust_cfa_offset -FRAME
	.endm

	.text
	.set	noreorder
	.p2align 2
	.globl	vfork
	.type	vfork, @function
	.ent	vfork
vfork:
	.cfi_startproc
	CALL_OURS ft_vfork_enter
	li	$a0, VFORK_FLAGS
	move	$a1, $zero
	move	$a2, $zero
	move	$a3, $zero
	li	$v0, SYS_clone
	syscall
	beqz	$a3, 2f
	 nop
	subu	$v0, $zero, $v0
	b	3f
	 nop
2:	beqz	$v0, 4f
	 nop
3:	move	$a0, $v0
	CALL_OURS ft_vfork_leave
4:	jr	$ra
	 nop
	.cfi_endproc
	.end	vfork
	.size	vfork, . - vfork

	.section .note.GNU-stack, "", @progbits
