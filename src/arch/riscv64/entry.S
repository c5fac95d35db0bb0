/* SPDX-License-Identifier: GPL-2.0 */
/*
 * riscv64 entry points of the runtime: ftrace_caller (one entry per site
 * kind) with its two patchable sites, return_to_handler, and _mcount.
 *
 * An enabled call site (see ftrace.c for the bytes):
 *
 *   patchable entry (SITE_ENTRY)            -pg (SITE_FRAME), after the prologue
 *   func:  auipc t0, hi                     func:  addi sp, sp, -N
 *          jalr  t0, lo(t0) -> ftrace_caller       sd   ra, N-8(sp)
 *          ...body...                              ...
 *                                                  auipc t0, hi
 *                                                  jalr  t0, lo(t0) -> ftrace_caller_frame
 *                                          or, the compiler's own call re-used:
 *                                                  jal   ra, _mcount@plt  (-> _mcount)
 *
 * ftrace_caller: t0 is where the traced function resumes (self_ret), ra
 * is still the parent's return address, sp the function's CFA.  It keeps
 * ra at CFA - 8, the slot a -pg prologue would have used, so that
 * return_to_handler finds every hijacked return at sp - 8.
 *
 * ftrace_caller_frame: t0 is self_ret (ra for _mcount), ra is dead: the
 * prologue saved it.  Where it saved it, frame.c reads from the prologue.
 *
 * The runtime's C is compiled for lp64d like the program (there is no
 * -mgeneral-regs-only on riscv, and a soft-float runtime could not link
 * with glibc): so the FP argument registers fa0-fa7 and fcsr are saved
 * here, as are a0-a7.
 */
	.text
	.option	norvc		/* the patchable sites are 4-byte words */

/*
 * The frame push_frame and save_args make, sp at its base: the block the
 * graph hook gets as its third argument (arch_arg_regs in ftrace.c reads
 * a0-a7 as its words 0-7).
 *
 *   +0    a0   ...  +56   a7
 *   +64   fa0  ...  +120  fa7
 *   +128  self_ret  +136  retp   +144  fcsr   +152  scratch slot
 *   +160  s0        +168  ra                  +176  = s0, the CFA
 */
#define FRAME		176
#define F_SELF		128	/* self_ret */
#define F_RETP		136	/* the parent's return slot */
#define F_FCSR		144
#define F_SCRATCH	152	/* stands in for an unknown return slot */
#define F_S0		160
#define F_RA		168	/* = CFA - 8 for ftrace_caller */

	.macro	save_args
	sd	a0, 0(sp)
	sd	a1, 8(sp)
	sd	a2, 16(sp)
	sd	a3, 24(sp)
	sd	a4, 32(sp)
	sd	a5, 40(sp)
	sd	a6, 48(sp)
	sd	a7, 56(sp)
	fsd	fa0, 64(sp)
	fsd	fa1, 72(sp)
	fsd	fa2, 80(sp)
	fsd	fa3, 88(sp)
	fsd	fa4, 96(sp)
	fsd	fa5, 104(sp)
	fsd	fa6, 112(sp)
	fsd	fa7, 120(sp)
	frcsr	t1
	sd	t1, F_FCSR(sp)
	sd	t0, F_SELF(sp)
	.endm

	.macro	restore_args
	ld	t1, F_FCSR(sp)
	fscsr	t1
	ld	a0, 0(sp)
	ld	a1, 8(sp)
	ld	a2, 16(sp)
	ld	a3, 24(sp)
	ld	a4, 32(sp)
	ld	a5, 40(sp)
	ld	a6, 48(sp)
	ld	a7, 56(sp)
	fld	fa0, 64(sp)
	fld	fa1, 72(sp)
	fld	fa2, 80(sp)
	fld	fa3, 88(sp)
	fld	fa4, 96(sp)
	fld	fa5, 104(sp)
	fld	fa6, 112(sp)
	fld	fa7, 120(sp)
	ld	t0, F_SELF(sp)
	.endm

	.macro	push_frame
	addi	sp, sp, -FRAME
	.cfi_def_cfa_offset FRAME
	sd	ra, F_RA(sp)
	sd	s0, F_S0(sp)
	.cfi_offset ra, -8
	.cfi_offset s0, -16
	addi	s0, sp, FRAME
	.cfi_def_cfa s0, 0
	.endm

/*
 * _mcount: the compiler's own call (jal/auipc+jalr ra, _mcount@plt)
 * becomes the enabled state of a site that is too far from us for a call
 * of ours, and lands here through the program's PLT.  A call that runs
 * before the runtime made the sites nops (a constructor that ran before
 * ours) finds ftrace_call a nop and just returns.
 */
	.p2align 2
	.globl	_mcount
	.type	_mcount, @function
	.globl	mcount
	.type	mcount, @function
_mcount:
mcount:
	mv	t0, ra
	j	ftrace_caller_frame
	.size	_mcount, . - _mcount
	.size	mcount, . - mcount

	.p2align 2
	.globl	ftrace_caller_frame
	.hidden	ftrace_caller_frame
	.type	ftrace_caller_frame, @function
ftrace_caller_frame:
	.cfi_startproc
	push_frame
	save_args
	mv	a0, t0
	mv	a1, s0				/* the site's sp */
	call	riscv64_frame_slot
	bnez	a0, 1f
	/* No slot found: the callbacks see a parent of 0, no graph frame. */
	addi	a0, sp, F_SCRATCH
	sd	zero, 0(a0)
1:	sd	a0, F_RETP(sp)
	j	ftrace_common
	.cfi_endproc
	.size	ftrace_caller_frame, . - ftrace_caller_frame

	.p2align 2
	.globl	ftrace_caller
	.hidden	ftrace_caller
	.type	ftrace_caller, @function
ftrace_caller:
	.cfi_startproc
	push_frame
	save_args
	addi	t1, sp, F_RA
	sd	t1, F_RETP(sp)

	/* tracer(self_ret, parent_ip, retp) */
ftrace_common:
	ld	a0, F_SELF(sp)
	ld	a2, F_RETP(sp)
	ld	a1, 0(a2)

	/* ftrace_call: "nop", or "jal ra, <tracer>" while a tracer with a
	 * callback is on: one aligned word, changed by one store. */
	.p2align 2
	.globl	ftrace_call
	.hidden	ftrace_call
ftrace_call:
	nop

	ld	a0, F_SELF(sp)
	ld	a1, F_RETP(sp)
	mv	a2, sp			/* the saved block, drawn above */
	addi	t1, sp, F_SCRATCH
	beq	a1, t1, 2f

	/* ftrace_graph_call: "nop", or "jal ra, prepare_ftrace_return"
	 * (self_ret, retp, block) while the function graph tracer is on.
	 * At a -pg site the block's a0-a7 are not the arguments: the
	 * compiler moved them before its call (arch_arg_regs.entry_only). */
	.p2align 2
	.globl	ftrace_graph_call
	.hidden	ftrace_graph_call
ftrace_graph_call:
	nop

2:	restore_args
	ld	ra, F_RA(sp)
	ld	s0, F_S0(sp)
	.cfi_def_cfa sp, FRAME
	addi	sp, sp, FRAME
	.cfi_def_cfa_offset 0
	jr	t0
	.cfi_endproc
	.size	ftrace_caller, . - ftrace_caller

/*
 * A graph-traced function returns here instead of to its parent: its
 * return slot (CFA - 8) held our address, and sp is now its CFA again.
 * Save the return registers (a0/a1, fa0/fa1: a struct may come back in
 * any pair of them), let the C side pop the shadow stack and give back
 * the real return address, and go there.
 *
 *   before:  parent: call func     func: ...; ld ra, N-8(sp); ret --> parent
 *   after:   parent: call func     func: ...; ld ra, N-8(sp); ret --> return_to_handler
 *                                                                 --> jr parent
 */
	.p2align 2
	.globl	return_to_handler
	.hidden	return_to_handler
	.type	return_to_handler, @function
return_to_handler:
	addi	sp, sp, -48
	sd	a0, 0(sp)
	sd	a1, 8(sp)
	fsd	fa0, 16(sp)
	fsd	fa1, 24(sp)
	frcsr	t1
	sd	t1, 32(sp)
	addi	a1, sp, 40			/* the slot the return came from */
	call	ftrace_return_to_handler
	mv	ra, a0
	ld	t1, 32(sp)
	fscsr	t1
	ld	a0, 0(sp)
	ld	a1, 8(sp)
	fld	fa0, 16(sp)
	fld	fa1, 24(sp)
	addi	sp, sp, 48
	ret
	.size	return_to_handler, . - return_to_handler

/*
 * The floating-point argument registers, read where they are.  The
 * runtime's C may use FP registers (no -mgeneral-regs-only on riscv), but
 * has no floating-point code: nothing from ftrace_caller (or
 * return_to_handler) to here changes fa0-fa7 (tests/cases/args/args_cross.sh
 * checks the runtime's code for it).  A float comes NaN-boxed: its bits
 * are the low 32.
 */
	.p2align 2
	.globl	arch_fp_args
	.hidden	arch_fp_args
	.type	arch_fp_args, @function
arch_fp_args:
	fsd	fa0, 0(a0)
	fsd	fa1, 8(a0)
	fsd	fa2, 16(a0)
	fsd	fa3, 24(a0)
	fsd	fa4, 32(a0)
	fsd	fa5, 40(a0)
	fsd	fa6, 48(a0)
	fsd	fa7, 56(a0)
	ret
	.size	arch_fp_args, . - arch_fp_args

	.globl	arch_fp_retval
	.hidden	arch_fp_retval
	.type	arch_fp_retval, @function
arch_fp_retval:
	fmv.x.d	a0, fa0
	ret
	.size	arch_fp_retval, . - arch_fp_retval

/* ftrace_stub: a callback that does nothing. */
	.p2align 2
	.globl	ftrace_stub
	.hidden	ftrace_stub
	.type	ftrace_stub, @function
ftrace_stub:
	ret
	.size	ftrace_stub, . - ftrace_stub

	.section .note.GNU-stack, "", @progbits
