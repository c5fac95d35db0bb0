/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mips o32 entry points of the runtime: ftrace_caller with its two
 * patchable words, return_to_handler, and the mcount stubs.
 *
 * A -pg site calls _mcount with the parent's return address in at, its
 * own in ra, and sp 8 bytes below the function's (o32 argument slots the
 * caller made for _mcount, which _mcount gives back):
 *
 *   gcc -fno-pic        move at, ra; jal _mcount; addiu sp, sp, -8
 *   gcc PIC             move at, ra; addiu sp, sp, -8
 *                       lw t9, %call16(_mcount)(gp); jalr t9; nop
 *   clang               lw t9, ...; move at, ra; jalr t9; addiu sp, sp, -8
 *
 * An enabled site is the compiler's own call (see ftrace.c): through the
 * PLT or the GOT it lands in this library's _mcount, whatever the
 * distance.  A site recordmcount --nop left has no call, nor the
 * adjustment: it is enabled as "jal ftrace_caller" (or a trampoline to
 * it), which enters past _mcount's "addiu sp, sp, 8".
 *
 * The graph tracer gets the slot the function saved ra in, found in its
 * prologue (mips_parent_slot, ftrace.c), or for a leaf the saved at;
 * each hijack is noted for the return (retstack.c).
 *
 * On return the function runs on with ra = at, as from glibc's _mcount:
 * a function that keeps its return address in ra (a leaf, to the
 * compiler, which does not see the call) returns through it.
 *
 * The runtime's C is ordinary PIC: a callee computes gp from t9, so every
 * call here sets t9.  ftrace_call and ftrace_graph_call are words the
 * core patches like code ("jal <callback>" or a nop), but they are read,
 * not run: the target is decoded from one load, and called with t9 set.
 * A word that is run could change between the load of t9 and its fetch.
 * What is saved is what glibc's _mcount keeps, which compilers count on:
 * a0-a3, v0 and v1 (gcc passes a nested function's static chain in v0),
 * at and ra; and gp.  The C code may use the floating-point registers
 * (no -mgeneral-regs-only on mips): $f12 and $f14, the argument
 * registers, are saved too.
 */
	.text
	.set	noreorder
	.set	noat

#define FRAME	96
#define S_V0	16
#define S_V1	20
#define S_A0	24
#define S_A1	28
#define S_A2	32
#define S_A3	36
#define S_GP	40		/* the program's gp */
#define S_AT	44		/* the parent's return address */
#define S_RA	48		/* where the traced function resumes */
#define S_F12	56
#define S_F14	64
#define S_CSP	72		/* the traced function's caller's sp */
#define S_RETP	76		/* where the parent's return address is kept */
#define S_OURGP	80
#define S_BASE	84		/* the address of .Lbase */
#define S_BEFORE 88		/* what *retp held before the graph hook */

/*
 * Call the target of the "jal" in the patchable word at \word (an offset
 * from .Lbase), or go to \skip if it holds anything else: a nop, or for
 * a moment the breakpoint the core writes over it while it changes it.
 * Skipping then is the old state or the new one, or for one call neither
 * (one callback for another); waiting could wait forever, in a signal
 * handler on the very thread that writes the word.
 */
	.macro	CALL_WORD word, skip
	lw	$t0, S_BASE($sp)
	addiu	$t0, $t0, \word - .Lbase
	lw	$t1, 0($t0)
	li	$t3, 3			/* the jal opcode */
	srl	$t2, $t1, 26
	bne	$t2, $t3, \skip
	 sll	$t9, $t1, 6
	srl	$t9, $t9, 4		/* target bits 27..2 */
	addiu	$t0, $t0, 4
	lui	$t2, 0xf000
	and	$t0, $t0, $t2		/* the 256 MB region of the word */
	or	$t9, $t9, $t0
	jalr	$t9
	 nop
	lw	$gp, S_OURGP($sp)
	.endm

	.p2align 4
	.globl	_mcount
	.type	_mcount, @function
	.globl	mcount
	.type	mcount, @function
	.globl	ftrace_caller
	.hidden	ftrace_caller
	.type	ftrace_caller, @function
_mcount:
mcount:
	.cfi_startproc
	.cfi_def_cfa_offset 8
	addiu	$sp, $sp, 8		/* the caller's "addiu sp, sp, -8" */
	.cfi_def_cfa_offset 0
ftrace_caller:
	addiu	$sp, $sp, -FRAME
	.cfi_def_cfa_offset FRAME
	sw	$v0, S_V0($sp)
	sw	$v1, S_V1($sp)
	sw	$a0, S_A0($sp)
	sw	$a1, S_A1($sp)
	sw	$a2, S_A2($sp)
	sw	$a3, S_A3($sp)
	sw	$gp, S_GP($sp)
	sw	$at, S_AT($sp)
	sw	$ra, S_RA($sp)
	.cfi_offset $ra, S_RA - FRAME
	sdc1	$f12, S_F12($sp)
	sdc1	$f14, S_F14($sp)

	/* Our own gp, from the address bal gives (as .cpload does from t9). */
	bal	.Lbase
	 nop
.Lbase:
	lui	$gp, %hi(_gp_disp)
	addiu	$gp, $gp, %lo(_gp_disp)
	addu	$gp, $gp, $ra
	sw	$gp, S_OURGP($sp)
	sw	$ra, S_BASE($sp)

	/* retp = mips_parent_slot(ra, the function's sp, &the saved at,
	 *			   &the caller's sp) */
	lw	$a0, S_RA($sp)
	addiu	$a1, $sp, FRAME
	addiu	$a2, $sp, S_AT
	addiu	$a3, $sp, S_CSP
	lw	$t9, %got(mips_parent_slot)($gp)
	jalr	$t9
	 nop
	lw	$gp, S_OURGP($sp)
	sw	$v0, S_RETP($sp)

	/* tracer(self_ret, parent_ip, retp): every site ends where its
	 * call returns to, ra, which is its record's key. */
	lw	$a0, S_RA($sp)
	lw	$a1, S_AT($sp)
	lw	$a2, S_RETP($sp)
	CALL_WORD ftrace_call, 4f

	/* prepare_ftrace_return(self_ret, retp), then
	 * mips_note_hijack(retp, what *retp held before, the caller's sp) */
4:	lw	$a1, S_RETP($sp)
	lw	$a0, S_RA($sp)
	lw	$t0, 0($a1)
	sw	$t0, S_BEFORE($sp)
	CALL_WORD ftrace_graph_call, 5f
	lw	$a0, S_RETP($sp)
	lw	$a1, S_BEFORE($sp)
	lw	$a2, S_CSP($sp)
	lw	$t9, %got(mips_note_hijack)($gp)
	jalr	$t9
	 nop
	lw	$gp, S_OURGP($sp)
5:

	ldc1	$f14, S_F14($sp)
	ldc1	$f12, S_F12($sp)
	lw	$v0, S_V0($sp)
	lw	$v1, S_V1($sp)
	lw	$a0, S_A0($sp)
	lw	$a1, S_A1($sp)
	lw	$a2, S_A2($sp)
	lw	$a3, S_A3($sp)
	lw	$gp, S_GP($sp)
	lw	$at, S_AT($sp)		/* the graph tracer may have changed it */
	lw	$ra, S_RA($sp)
	addiu	$sp, $sp, FRAME
	.cfi_def_cfa_offset 0
	jr	$ra
	 move	$ra, $at
	.cfi_endproc
	.size	_mcount, . - _mcount
	.size	mcount, . - mcount
	.size	ftrace_caller, . - ftrace_caller

/*
 * The patchable words: never run (see above), aligned words in text so
 * that the core patches them as it patches sites.
 *
 *   ftrace_call:        00000000 (nop)  or  0c000000 | target >> 2  (jal)
 */
	.p2align 2
	.globl	ftrace_call
	.hidden	ftrace_call
ftrace_call:
	.word	0
	.globl	ftrace_graph_call
	.hidden	ftrace_graph_call
ftrace_graph_call:
	.word	0

/*
 * A graph-traced function returns here instead of to its parent: its ra
 * (the slot it reloaded it from, or the at of a leaf) held our address.
 * Save the return registers (v0, v1, $f0, $f2), let the C side pop the
 * shadow stack and give back the real return address, and go there.
 * A return through a register does not say which slot it came from:
 * retstack.c finds it from the stack pointer the function returned with,
 * its caller's.
 *
 *   before:  parent: jalr func      func: ...; jr ra  --> parent
 *   after:   parent: jalr func      func: ...; jr ra  --> return_to_handler
 *                                                         --> jr parent
 */
#define RFRAME	48

	.p2align 4
	.globl	return_to_handler
	.hidden	return_to_handler
	.type	return_to_handler, @function
return_to_handler:
	addiu	$sp, $sp, -RFRAME
	sw	$v0, 16($sp)
	sw	$v1, 20($sp)
	sw	$gp, 24($sp)
	sdc1	$f0, 32($sp)
	sdc1	$f2, 40($sp)
	bal	1f
	 nop
1:	lui	$gp, %hi(_gp_disp)
	addiu	$gp, $gp, %lo(_gp_disp)
	addu	$gp, $gp, $ra
	lw	$a0, 16($sp)			/* the return value */
	addiu	$a1, $sp, RFRAME		/* the caller's sp */
	lw	$t9, %got(mips_return_to_handler)($gp)
	jalr	$t9
	 nop
	move	$at, $v0
	ldc1	$f2, 40($sp)
	ldc1	$f0, 32($sp)
	lw	$gp, 24($sp)
	lw	$v1, 20($sp)
	lw	$v0, 16($sp)
	jr	$at
	 addiu	$sp, $sp, RFRAME
	.size	return_to_handler, . - return_to_handler

/*
 * ftrace_stub: nothing to do.
 */
	.p2align 2
	.globl	ftrace_stub
	.hidden	ftrace_stub
	.type	ftrace_stub, @function
ftrace_stub:
	jr	$ra
	 nop
	.size	ftrace_stub, . - ftrace_stub

	.section .note.GNU-stack, "", @progbits
