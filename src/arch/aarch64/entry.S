/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aarch64 entry points of the runtime: ftrace_caller with its two
 * patchable words, return_to_handler, ftrace_return_caller, the pc fix
 * of ThreadSanitizer's hook, and the mcount stubs.
 *
 * An enabled call site (directly, or through a far-call trampoline
 * "ldr x16, #8; br x16" mapped near its module):
 *
 *   patchable entry (SITE_ENTRY)           -pg (SITE_FRAME)
 *   func:   mov  x9, x30                   func:  stp  x29, x30, [sp, #-N]!
 *           bl   ftrace_caller                    mov  x29, sp
 *           ...body...                            ...
 *                                                 (mov x0, x30: gcc only)
 *                                                 bl   ftrace_caller_frame
 *
 * x30 is where the site's bl returns: the record's key (self_ret).  The
 * parent's return address is in x9 at a patchable entry, before the
 * function made any frame, and in x17 at a detour's stub (core/detours.c);
 * at a -pg site it is already saved at [x29, #8], in the frame record the
 * prologue made.  Either way x17 gets the address of a slot holding it
 * (retp) and the common code runs.  At a patchable entry or a detour that
 * slot is made here, as the function's own frame record would be: "stp
 * x29, x9, [sp, #-16]!", so it lies at CFA - 8; on the way out x30 is
 * loaded back from it, return_to_handler if the graph tracer took it.
 *
 * A -pg call is an ordinary call to the compiler: it moved the arguments
 * out of the caller-saved registers first.  A patchable entry comes
 * before anything: x0-x7, x8 and v0-v7 carry arguments then.  All of them
 * are kept: the tracers' C is built with -mgeneral-regs-only, but libc
 * functions it may reach (memset) use the vector registers.  A detoured
 * function was built without call sites, and its callers may have been
 * compiled knowing which registers it clobbers (gcc's -fipa-ra): they keep
 * values across the call in any other, x9-x15 and x18 among them.  So
 * those are kept too, here and in return_to_handler.  x16 and x17 alone
 * are free at every entry and call (a linker's veneer may clobber them,
 * and gcc says so at every call it makes), so they carry retp and the way
 * back.
 */
	.text

/*
 * Every frame below keeps the argument registers at the same places:
 * x0-x7 at sp + 16.., q0-q7 at sp + 160.. (the block ftrace_common
 * hands the tracers, drawn below).
 */
.macro SAVE_X0_X7
	stp	x0, x1, [sp, #16]
	stp	x2, x3, [sp, #32]
	stp	x4, x5, [sp, #48]
	stp	x6, x7, [sp, #64]
.endm
.macro RESTORE_X0_X7
	ldp	x0, x1, [sp, #16]
	ldp	x2, x3, [sp, #32]
	ldp	x4, x5, [sp, #48]
	ldp	x6, x7, [sp, #64]
.endm
/* The other caller-saved registers, where every frame below that keeps
 * them has them: x8-x15 at sp + 80.. */
.macro SAVE_X8_X15
	stp	x8, x9, [sp, #80]
	stp	x10, x11, [sp, #96]
	stp	x12, x13, [sp, #112]
	stp	x14, x15, [sp, #128]
.endm
.macro RESTORE_X8_X15
	ldp	x8, x9, [sp, #80]
	ldp	x10, x11, [sp, #96]
	ldp	x12, x13, [sp, #112]
	ldp	x14, x15, [sp, #128]
.endm
.macro SAVE_Q0_Q7
	stp	q0, q1, [sp, #160]
	stp	q2, q3, [sp, #192]
	stp	q4, q5, [sp, #224]
	stp	q6, q7, [sp, #256]
.endm
.macro RESTORE_Q0_Q7
	ldp	q0, q1, [sp, #160]
	ldp	q2, q3, [sp, #192]
	ldp	q4, q5, [sp, #224]
	ldp	q6, q7, [sp, #256]
.endm

/*
 * ftrace_common's frame, x29 = sp at its base: the block the graph hook
 * gets as its third argument (arch_arg_regs in ftrace.c reads x0-x7 as
 * its words 2-9).
 *
 *   +0    x29       +8    x30 (self_ret)
 *   +16   x0        +24   x1   ...   +72   x7
 *   +80   x8        +88   x17 (retp)
 *   +96   x9        +104  x10  ...   +144  x15     +152  x18
 *   +160  q0        ...              +272  q7
 *   +288  the frame record ftrace_caller made (x29, parent's x30)
 */
#define FRAME	288		/* x29, x30, x0-x8, x17, x9-x15, x18, q0-q7 */
#define RETP	88		/* where x17 (retp) is kept */

	.p2align 4
	.globl	ftrace_caller_frame
	.hidden	ftrace_caller_frame
	.type	ftrace_caller_frame, %function
ftrace_caller_frame:
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	add	x17, x29, #8
	b	ftrace_common
	.cfi_endproc
	.size	ftrace_caller_frame, . - ftrace_caller_frame

/*
 * The unwinder sees ftrace_caller as the traced function's body: its
 * frame record holds the parent's return address, and the function
 * itself, which has no frame yet, is skipped.
 *
 * A detour's stub enters at ftrace_caller_detour, with the parent's
 * return address in x17 rather than x9, which its caller may still need:
 *
 *   stub:    mov  x17, x30
 *            adrp x16, block; ldr x16, [x16, #:lo12:block]
 *            blr  x16                  -> ftrace_caller_detour
 */
	.p2align 4
	.globl	ftrace_caller_detour
	.hidden	ftrace_caller_detour
	.type	ftrace_caller_detour, %function
ftrace_caller_detour:
	.cfi_startproc
	stp	x29, x17, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	add	x17, sp, #8
	b	ftrace_common
	.cfi_endproc
	.size	ftrace_caller_detour, . - ftrace_caller_detour

	.p2align 4
	.globl	ftrace_caller
	.hidden	ftrace_caller
	.type	ftrace_caller, %function
ftrace_caller:
	.cfi_startproc
	stp	x29, x9, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	add	x17, sp, #8
ftrace_common:
	stp	x29, x30, [sp, #-FRAME]!
	.cfi_adjust_cfa_offset FRAME
	mov	x29, sp
	.cfi_def_cfa_register 29
	SAVE_X0_X7
	stp	x8, x17, [sp, #80]
	stp	x9, x10, [sp, #96]
	stp	x11, x12, [sp, #112]
	stp	x13, x14, [sp, #128]
	stp	x15, x18, [sp, #144]
	SAVE_Q0_Q7

	/*
	 * tracer(self_ret, parent_ip, retp).  A return address a -pg
	 * function saved after signing it (pac-ret: paciasp at its entry)
	 * carries the code in its top bits: the tracers see it stripped.
	 */
	mov	x0, x30
	ldr	x1, [x17]
	and	x1, x1, #0xffffffffffff
	mov	x2, x17

	/*
	 * ftrace_call: "nop", or "bl <tracer>" while a tracer with a callback
	 * is on.  NOP <-> BL in one aligned word: other threads may run it
	 * while it changes.
	 */
	.globl	ftrace_call
	.hidden	ftrace_call
ftrace_call:
	nop

	ldr	x0, [x29, #8]
	ldr	x1, [x29, #RETP]
	mov	x2, x29			/* the saved block, drawn above */

	/* A signed return address is left alone: return_to_handler in its
	 * place would fail the function's autiasp, and signing that needs
	 * the stack pointer of the function's entry, not known here. */
	ldr	x9, [x1]
	tst	x9, #0xffff000000000000
	b.ne	1f

	/* ftrace_graph_call: "nop", or "bl prepare_ftrace_return" while the
	 * function graph tracer is on, with (self_ret, retp, block) set
	 * above.  At a -pg site the block's x0-x7 are not the arguments:
	 * the compiler moved them before its call (arch_arg_regs.entry_only). */
	.globl	ftrace_graph_call
	.hidden	ftrace_graph_call
ftrace_graph_call:
	nop
1:

	RESTORE_Q0_Q7
	RESTORE_X0_X7
	ldp	x8, x17, [sp, #80]
	ldp	x9, x10, [sp, #96]
	ldp	x11, x12, [sp, #112]
	ldp	x13, x14, [sp, #128]
	ldp	x15, x18, [sp, #144]
	/* Back to the site with x30 what the slot says now (at a -pg site
	 * x30 is dead after the call; the function reloads it itself). */
	ldr	x16, [x29, #8]
	ldr	x30, [x17]
	.cfi_def_cfa sp, FRAME + 16
	ldr	x29, [sp]
	add	sp, sp, #FRAME + 16
	.cfi_def_cfa_offset 0
	.cfi_restore 29
	.cfi_restore 30
	ret	x16
	.cfi_endproc
	.size	ftrace_caller, . - ftrace_caller

/*
 * A graph-traced function returns here instead of to its parent: the slot
 * its x30 came from held our address.  sp is the CFA the returning frame
 * leaves; the word below it names its shadow frame (arch_return_slot in
 * fde.c).
 * Keep the result registers (x0-x7, x8, q0-q3 for a floating-point
 * aggregate), let the C side pop the shadow stack and give back the real
 * return address, and go there.  The other caller-saved registers are
 * kept too, x16 and x17 aside: a detoured function's caller may keep
 * values in them across the call (see the top of this file).
 *
 *   before:  parent: bl func      func: ...; ret  --> parent
 *   after:   parent: bl func      func: ...; ret  --> return_to_handler
 *                                                     --> ret to parent
 */
#define RFRAME	288		/* x29, x30, x0-x15, x18, q0-q7 */

	.p2align 4
	.globl	return_to_handler
	.hidden	return_to_handler
	.type	return_to_handler, %function
return_to_handler:
	stp	x29, x30, [sp, #-RFRAME]!
	mov	x29, sp
	SAVE_X0_X7
	SAVE_X8_X15
	str	x18, [sp, #144]
	SAVE_Q0_Q7
	add	x1, sp, #RFRAME - 8		/* the key; x0 is the result */
	bl	ftrace_return_to_handler
	mov	x30, x0
	RESTORE_Q0_Q7
	RESTORE_X0_X7
	RESTORE_X8_X15
	ldr	x18, [sp, #144]
	ldr	x29, [sp]
	add	sp, sp, #RFRAME
	ret
	.size	return_to_handler, . - return_to_handler

/*
 * ThreadSanitizer's entry hook, where clang links it into the program, is
 * handed the return address each function's slot holds:
 * return_to_handler once the graph tracer took the call.  Its detour's
 * stub (core/detours.c, a pc fix) calls here first:
 *
 *   stub:   mov  x17, x30; adrp/ldr x16; blr x16   x0: the pc argument
 *           <the hook's first instruction>; b __tsan_func_entry + 4
 *
 * x0 becomes the real return address if it was return_to_handler
 * (graph_newest_return), x30 the caller's again, and the way back is x16,
 * free at the hook's entry.  Every other register is kept, as
 * return_to_handler keeps them (x17 in x0's slot).
 */
	.p2align 4
	.globl	ftrace_fix_pc_arg
	.hidden	ftrace_fix_pc_arg
	.type	ftrace_fix_pc_arg, %function
ftrace_fix_pc_arg:
	.cfi_startproc
	adrp	x16, return_to_handler
	add	x16, x16, :lo12:return_to_handler
	cmp	x0, x16
	b.ne	1f
	stp	x29, x30, [sp, #-RFRAME]!
	.cfi_def_cfa_offset RFRAME
	.cfi_offset 29, -RFRAME
	.cfi_offset 30, -RFRAME + 8
	mov	x29, sp
	SAVE_X0_X7
	str	x17, [sp, #16]
	SAVE_X8_X15
	str	x18, [sp, #144]
	SAVE_Q0_Q7
	bl	graph_newest_return
	RESTORE_Q0_Q7
	ldr	x17, [sp, #16]
	ldr	x1, [sp, #24]
	ldp	x2, x3, [sp, #32]
	ldp	x4, x5, [sp, #48]
	ldp	x6, x7, [sp, #64]
	RESTORE_X8_X15
	ldr	x18, [sp, #144]
	ldp	x29, x30, [sp], #RFRAME
	.cfi_def_cfa_offset 0
1:	mov	x16, x30
	mov	x30, x17
	br	x16
	.cfi_endproc
	.size	ftrace_fix_pc_arg, . - ftrace_fix_pc_arg

/*
 * A return site of a clang build (an XRay sled recordmcount made one,
 * decode.c), enabled: the function returns through its own ret, its x30
 * never replaced, so the return stack buffer stays right.
 *
 *   before:  func: ...; ldp x29, x30, [sp], #16; b #+24; ...
 *                  mov x16, x30; nop;                        ret --> parent
 *   after:   func: ...; ldp x29, x30, [sp], #16; b #+24; ...
 *                  mov x16, x30; bl ftrace_return_caller;    ret --> parent
 *
 * A site before a tail call's jump calls ftrace_tail_caller instead.
 * Entered with x30 the sled's ret (or jump), x16 the function's return
 * address, sp the CFA its epilogue left.  x16 goes to the word below
 * that, in a frame record, as ftrace_caller puts the parent's return
 * address there at the entry: that word (CFA - 8) is the frame's slot at
 * both ends.  The C side reads it, writes return_to_handler in it at a
 * tail call (the callee's return then closes the frame), and x30 is
 * loaded back from it.  Kept as return_to_handler keeps them: x0-x8
 * (results, the indirect result's address), x9-x15, x18, q0-q7; and x17,
 * which a tail call's "br x17" may jump through.  x16, free once x30 has
 * its value back, carries the way back, by "ret x16", which the predictor
 * takes for the return of the site's bl.
 */
#define SFRAME	288		/* x29, x30 (the way back), x0-x15, x17, x18, q0-q7 */

.macro RETURN_CALLER name, tail
	.p2align 4
	.globl	\name
	.hidden	\name
	.type	\name, %function
\name:
	.cfi_startproc
	stp	x29, x16, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	stp	x29, x30, [sp, #-SFRAME]!
	.cfi_adjust_cfa_offset SFRAME
	mov	x29, sp
	.cfi_def_cfa_register 29
	SAVE_X0_X7
	SAVE_X8_X15
	stp	x17, x18, [sp, #144]
	SAVE_Q0_Q7
	add	x1, sp, #SFRAME + 8		/* the slot; x0 is the result */
	mov	w2, #\tail
	bl	ftrace_return_site
	RESTORE_Q0_Q7
	RESTORE_X0_X7
	RESTORE_X8_X15
	ldp	x17, x18, [sp, #144]
	.cfi_def_cfa sp, SFRAME + 16
	ldp	x29, x16, [sp]
	ldr	x30, [sp, #SFRAME + 8]
	add	sp, sp, #SFRAME + 16
	.cfi_def_cfa_offset 0
	.cfi_restore 29
	.cfi_restore 30
	ret	x16
	.cfi_endproc
	.size	\name, . - \name
.endm

	RETURN_CALLER ftrace_return_caller, 0
	RETURN_CALLER ftrace_tail_caller, 1

/*
 * The floating-point argument registers, read where they are: the
 * tracers' C is built with -mgeneral-regs-only, and nothing it calls on
 * the way from ftrace_caller (or return_to_handler) to here uses the
 * vector registers, so d0-d7 still hold what the traced function got,
 * and d0 what it returned.  (ftrace_caller's copies in its block are for
 * the program: they are put back whatever the hooks did.)
 */
	.p2align 4
	.globl	arch_fp_args
	.hidden	arch_fp_args
	.type	arch_fp_args, %function
arch_fp_args:
	stp	d0, d1, [x0]
	stp	d2, d3, [x0, #16]
	stp	d4, d5, [x0, #32]
	stp	d6, d7, [x0, #48]
	ret
	.size	arch_fp_args, . - arch_fp_args

	.globl	arch_fp_retval
	.hidden	arch_fp_retval
	.type	arch_fp_retval, %function
arch_fp_retval:
	fmov	x0, d0
	ret
	.size	arch_fp_retval, . - arch_fp_retval

/*
 * ftrace_stub: a call to nothing.
 */
	.p2align 4
	.globl	ftrace_stub
	.hidden	ftrace_stub
	.type	ftrace_stub, %function
ftrace_stub:
	ret
	.size	ftrace_stub, . - ftrace_stub

/*
 * The _mcount of -pg programs.  The runtime turns every call to _mcount
 * into a nop or a call of its own as it reads a module; a call that
 * comes before (a constructor that ran before ours, or one of a module
 * dlopen() is loading) goes to ft_mcount_early while ft_mcount_slow
 * says so, and on where it says: past the site, or back to it once it
 * calls the tracer (through x30 and ret, which no BTI landing pad
 * guards).  That path runs libc: every caller-saved register is kept,
 * the vector registers whole.
 */
#define EARLY_FRAME	672	/* x29, x30, x0-x17, q0-q31 */

	.p2align 4
	.globl	mcount
	.type	mcount, %function
	.globl	_mcount
	.type	_mcount, %function
mcount:
_mcount:
	adrp	x16, ft_mcount_slow
	ldr	w16, [x16, #:lo12:ft_mcount_slow]
	cbnz	w16, mcount_early
	ret
	.size	mcount, . - mcount
	.size	_mcount, . - _mcount

	.p2align 4
	.type	mcount_early, %function
mcount_early:
	.cfi_startproc
	sub	sp, sp, #EARLY_FRAME
	.cfi_def_cfa_offset EARLY_FRAME
	stp	x29, x30, [sp]
	.cfi_offset 29, -EARLY_FRAME
	.cfi_offset 30, -EARLY_FRAME + 8
	mov	x29, sp
	SAVE_X0_X7
	SAVE_X8_X15
	stp	x16, x17, [sp, #144]
	SAVE_Q0_Q7
	stp	q8, q9, [sp, #288]
	stp	q10, q11, [sp, #320]
	stp	q12, q13, [sp, #352]
	stp	q14, q15, [sp, #384]
	stp	q16, q17, [sp, #416]
	stp	q18, q19, [sp, #448]
	stp	q20, q21, [sp, #480]
	stp	q22, q23, [sp, #512]
	stp	q24, q25, [sp, #544]
	stp	q26, q27, [sp, #576]
	stp	q28, q29, [sp, #608]
	stp	q30, q31, [sp, #640]
	mov	x0, x30
	bl	ft_mcount_early
	mov	x30, x0
	RESTORE_Q0_Q7
	ldp	q8, q9, [sp, #288]
	ldp	q10, q11, [sp, #320]
	ldp	q12, q13, [sp, #352]
	ldp	q14, q15, [sp, #384]
	ldp	q16, q17, [sp, #416]
	ldp	q18, q19, [sp, #448]
	ldp	q20, q21, [sp, #480]
	ldp	q22, q23, [sp, #512]
	ldp	q24, q25, [sp, #544]
	ldp	q26, q27, [sp, #576]
	ldp	q28, q29, [sp, #608]
	ldp	q30, q31, [sp, #640]
	RESTORE_X0_X7
	RESTORE_X8_X15
	ldp	x16, x17, [sp, #144]
	ldr	x29, [sp]
	add	sp, sp, #EARLY_FRAME
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	mcount_early, . - mcount_early

	.section .note.GNU-stack, "", %progbits
