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
#include "common/trace_format.h"
#include "core/asm_offsets.h"
#include "entry_macros.h"

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

/*
 * A detour's stub (src/core/detours.c) calls in here, %r11 saved under
 * the return address: a program built without call sites may keep a
 * value in %r11 across a call to a function whose body its compiler saw
 * (gcc's -fipa-ra), which no call site's caller does.  The parent's
 * return address is at 16(%rsp).  Every path of ftrace_caller returns
 * with %r11 the value of the return slot: return_to_handler if the graph
 * tracer took the call, and the stub then calls the function from
 * ftrace_detour_call (below).
 *
 *   stub:  push %r11
 *          call *ftrace_caller_detour     [%rsp] stub + 8, 8(%rsp) %r11
 *          cmp  handler(%rip), %r11       16(%rsp) the parent's
 *          ...
 */
	.p2align 4
	.globl	ftrace_caller_detour
	.hidden	ftrace_caller_detour
	.type	ftrace_caller_detour, @function
ftrace_caller_detour:
	.cfi_startproc
	leaq	16(%rsp), %r11
	jmp	1f
	.cfi_endproc
	.size	ftrace_caller_detour, . - ftrace_caller_detour

	.p2align 4
	.globl	ftrace_caller
	.hidden	ftrace_caller
	.type	ftrace_caller, @function
ftrace_caller:
	.cfi_startproc
	leaq	8(%rsp), %r11
1:
	SAVE_FIVE
	GRAPH_FAST_ALLOWED .Lentry_slow
	GRAPH_FAST_ENTER %r11, .Lentry_slow
	cmpl	$0, FT_CTX_GRAPH_OFF(%rdi)
	jne	.Lentry_idle
	movl	FT_CTX_DEPTH(%rdi), %eax
	cmpl	FT_CTX_MAX_DEPTH(%rdi), %eax
	jae	.Lentry_idle
	GRAPH_FAST_ROOM .Lentry_idle

	/* Still on the context's CPU (ev_cpu): ft_cpu()'s one load. */
	movq	ft_cpu_offset(%rip), %rax
	movl	%fs:(%rax), %eax
	cmpl	FT_CTX_CPU(%rdi), %eax
	jne	.Lentry_idle

	/* %esi: the record of the site returning to 40(%rsp), found in the
	 * hash as ftrace_rec_lookup() finds it. */
	movq	40(%rsp), %rdx
	movq	ftrace_rec_hash(%rip), %rsi
	movabsq	$FT_HASH_MULTIPLIER, %rax
	imulq	%rdx, %rax
	movl	FT_HASH_SHIFT(%rsi), %ecx
	shrq	%cl, %rax
3:	andq	FT_HASH_MASK(%rsi), %rax
	movq	%rax, %rcx
	shlq	$FT_HASH_SLOT_SHIFT, %rcx
	addq	%rsi, %rcx
	cmpq	%rdx, FT_HASH_SLOTS(%rcx)
	je	4f
	cmpq	$0, FT_HASH_SLOTS(%rcx)
	je	.Lentry_idle
	incq	%rax
	jmp	3b
4:	movl	FT_HASH_SLOTS+FT_HASH_SLOT_ID(%rcx), %esi
	cmpl	$FT_ENTRY_MAX_ID, %esi
	ja	.Lentry_idle
	/* With a trigger set, its functions go to C, which calls the probe
	 * ops from ftrace_call; every other function stays here. */
	cmpl	$0, ft_graph+FT_GRAPH_PROBES(%rip)
	jne	.Lentry_probes
.Lentry_frame:

	/* The frame, filled in above the top of the shadow stack (after
	 * the context); pushed once the event is written, in C's order, so
	 * that a hook a jump abandons (unwind.c) leaves what C's would. */
	movl	FT_CTX_DEPTH(%rdi), %ecx
	shlq	$FT_FRAME_SHIFT, %rcx
	leaq	FT_CTX_SIZE(%rdi,%rcx), %rcx
	movq	(%r11), %rax
	movq	%rax, FT_FRAME_RET(%rcx)
	movq	%r11, FT_FRAME_RETP(%rcx)
	movl	%esi, FT_FRAME_ID(%rcx)
	movl	$FT_FRAME_TRACED, FT_FRAME_FLAGS(%rcx)

	GRAPH_FAST_CLOCK
	cmpq	$FT_ENTRY_MAX_DELTA, %rdx
	ja	.Lentry_idle
	movq	%rax, FT_FRAME_TIME(%rcx)

	/* The entry word: delta << (FT_ENTRY_ID_BITS + 1) | id << 1.  From
	 * here on, nothing goes to the C path: %r11 is free. */
	shll	$FT_ENTRY_ID_BITS + 1, %edx
	leal	(%rdx,%rsi,2), %edx
	GRAPH_FAST_COMMIT
	incl	FT_CTX_DEPTH(%rdi)

	/* The frame is pushed: its return slot takes return_to_handler,
	 * unless the function's return sites are on. */
	REC_FLAGS_AT r11, dx
	testl	$FT_REC_FL_TIMED, FT_REC_FLAGS(%r11,%rdx)
	jnz	.Lentry_timed
.Lentry_hijack:
	testl	$FT_REC_FL_RETURNS, FT_REC_FLAGS(%r11,%rdx)
	jnz	5f
	cmpb	$FT_SITE_DETOUR, FT_REC_KIND(%r11,%rdx)
	jne	6f
	orl	$FT_FRAME_PAIRED, FT_FRAME_FLAGS(%rcx)
6:	leaq	return_to_handler(%rip), %rax
	movq	FT_FRAME_RETP(%rcx), %rdx
	movq	%rax, (%rdx)
5:	movq	FT_FRAME_RETP(%rcx), %r11	/* the slot's value, for a detour */
	movq	(%r11), %r11
	movl	$0, FT_CTX_BUSY(%rdi)
	.cfi_remember_state
	RESTORE_FIVE
	SCRUB_SAVED 5
	ret
	.cfi_restore_state

/* A snapshot_if_longer trigger times its calls: as C marks the frame. */
.Lentry_timed:
	orl	$FT_FRAME_TIMED, FT_FRAME_FLAGS(%rcx)
	jmp	.Lentry_hijack

.Lentry_probes:
	REC_FLAGS_AT rcx, dx
	testl	$FT_REC_FL_PROBED, FT_REC_FLAGS(%rcx,%rdx)
	jz	.Lentry_frame
.Lentry_idle:
	movl	$0, FT_CTX_BUSY(%rdi)
.Lentry_slow:
	RESTORE_FIVE
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
	movq	64(%rsp), %r11			/* the slot's value, for a detour */
	movq	(%r11), %r11
	cmpl	$0, ft_scrub_spills(%rip)
	je	.Lcaller_scrubbed
	.irp off, 0, 8, 16, 24, 32, 40, 48, 56, 64
	movq	$0, \off(%rsp)
	.endr
.Lcaller_scrubbed:
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
 *
 * The function's ret went where the return stack did not predict, which
 * left the parent's entry on it: the jump keeps that entry for the
 * parent's own return.  A detour's function the graph took returns
 * otherwise (FT_FRAME_PAIRED): its stub called it from
 * ftrace_detour_call, whose call pushed this address, at the slot, and
 * onto the return stack, which predicted the ret here; its top is now the
 * parent's entry, and a ret to the parent, predicted too, takes it:
 *
 *   parent: call f      f: jmp stub      stub: ... jmp ftrace_detour_call
 *   ftrace_detour_call: call *copy       copy: ...; jmp f + len
 *   f: ...; ret   --> return_to_handler: ...; ret --> parent
 *
 * Every register comes back as the function left it, not only those the
 * ABI says a return keeps: the parent of a function reached by a detour
 * may have been compiled knowing which registers that function clobbers
 * (gcc's -fipa-ra), and keep a value in %rcx or %r11 across the call.
 * So the real return address goes back into the slot, and the ret or the
 * jump takes it from there (the jump from below the restored %rsp, in
 * the 128-byte red zone no signal frame touches, which a parent, not
 * being a leaf, has no use for).
 *
 * ftrace_detour_call, entered from a detour's stub with %rsp at the slot
 * (src/arch/x86_64/ftrace.c): the copy's address is 16 bytes below it.
 * Its call must end where return_to_handler begins.
 */
	.p2align 4
	.globl	ftrace_detour_call
	.hidden	ftrace_detour_call
	.type	ftrace_detour_call, @function
ftrace_detour_call:
	leaq	8(%rsp), %rsp
	call	*-24(%rsp)
	.size	ftrace_detour_call, . - ftrace_detour_call
	.globl	return_to_handler
	.hidden	return_to_handler
	.type	return_to_handler, @function
return_to_handler:
	leaq	-8(%rsp), %rsp			/* back over the slot */
	SAVE_FIVE cfi=0
	leaq	40(%rsp), %rsi			/* the slot the return came from */
	GRAPH_FAST_ALLOWED 2f
	GRAPH_FAST_ENTER %rsi, 2f
	GRAPH_FAST_POP 1f
	movq	FT_FRAME_RET(%rcx), %rax
	movq	%rax, 40(%rsp)
	movl	$0, FT_CTX_BUSY(%rdi)
	testl	$FT_FRAME_PAIRED, FT_FRAME_FLAGS(%rcx)
	jz	3f
	RESTORE_FIVE cfi=0
	SCRUB_SAVED 5
	ret
3:	RESTORE_FIVE cfi=0
	SCRUB_SAVED 5
	leaq	8(%rsp), %rsp
	jmp	*-8(%rsp)
1:	movl	$0, FT_CTX_BUSY(%rdi)
2:	RESTORE_FIVE cfi=0

	.irp reg, rax, rcx, rdx, rsi, rdi, r8, r9, r10, r11
	pushq	%\reg
	.endr
	movq	%rax, %rdi			/* the return value */
	leaq	72(%rsp), %rsi			/* the slot the return came from */
	pushq	%rbp
	movq	%rsp, %rbp
	andq	$-16, %rsp
	call	ftrace_return_to_handler
	movq	%rbp, %rsp
	popq	%rbp
	btrq	$63, %rax			/* RET_PAIRED (tracer_graph.c) */
	movq	%rax, 72(%rsp)
	jc	4f
	.irp reg, r11, r10, r9, r8, rdi, rsi, rdx, rcx, rax
	popq	%\reg
	.endr
	SCRUB_SAVED 9
	leaq	8(%rsp), %rsp
	jmp	*-8(%rsp)
4:	.irp reg, r11, r10, r9, r8, rdi, rsi, rdx, rcx, rax
	popq	%\reg
	.endr
	SCRUB_SAVED 9
	ret
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
.if \tail == 0
	SAVE_FIVE
	leaq	48(%rsp), %rsi			/* the function's return slot */
	GRAPH_FAST_ALLOWED 6f
	GRAPH_FAST_ENTER %rsi, 6f
	leaq	return_to_handler(%rip), %rax
	cmpq	%rax, (%rsi)
	je	5f
	GRAPH_FAST_POP 5f
	movl	$0, FT_CTX_BUSY(%rdi)
	.cfi_remember_state
	RESTORE_FIVE
	SCRUB_SAVED 5
	ret
	.cfi_restore_state
5:	movl	$0, FT_CTX_BUSY(%rdi)
6:	RESTORE_FIVE
.endif
	FRAME_SAVE_CALLER
	andq	$-16, %rsp
	movq	%rax, %rdi			/* the return value */
	leaq	16(%rbp), %rsi			/* the function's return slot */
	movl	$\tail, %edx
	call	ftrace_return_site
	leaq	-72(%rbp), %rsp
	FRAME_RESTORE_CALLER
	SCRUB_SAVED 10
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
 * ftrace_stub: a call to nothing.
 */
	.p2align 4
	.globl	ftrace_stub
	.hidden	ftrace_stub
	.type	ftrace_stub, @function
ftrace_stub:
	ret
	.size	ftrace_stub, . - ftrace_stub

/*
 * The mcount of -pg / -mfentry programs.  The runtime turns every call to
 * mcount into a nop or a call of its own as it reads a module; a call
 * that comes before (a constructor that ran before ours, or one of a
 * module dlopen() is loading) goes to ft_mcount_early while
 * ft_mcount_slow says so, and on where it says: past the site, or back
 * to it once it calls the tracer.  That path runs libc, which may use
 * any vector register: all of them are kept, by XSAVE (FXSAVE where the
 * system has none), as every caller-saved general register is.  AMX's
 * tiles are left out: no call keeps them, and a process that did not ask
 * for them would fault on their restore.
 */
#define XSAVE_FEATURES	0xfff9ffff	/* all but XTILECFG (17), XTILEDATA (18) */
	.p2align 4
	.globl	mcount
	.type	mcount, @function
	.globl	_mcount
	.type	_mcount, @function
	.globl	__fentry__
	.type	__fentry__, @function
mcount:
_mcount:
__fentry__:
	cmpl	$0, ft_mcount_slow(%rip)
	jne	mcount_early
	ret
	.size	mcount, . - mcount
	.size	_mcount, . - _mcount
	.size	__fentry__, . - __fentry__

	.p2align 4
	.type	mcount_early, @function
mcount_early:
	.cfi_startproc
	FRAME_SAVE_CALLER
	pushq	%rbx
	movl	$1, %eax
	cpuid
	btl	$27, %ecx		/* OSXSAVE */
	jnc	1f
	movl	$0xd, %eax
	xorl	%ecx, %ecx
	cpuid				/* %ebx: the XSAVE area's size */
	subq	%rbx, %rsp
	andq	$-64, %rsp
	xorl	%eax, %eax		/* XRSTOR wants the header clear */
	movl	$8, %ecx
2:	movq	%rax, 504(%rsp,%rcx,8)
	decl	%ecx
	jnz	2b
	movl	$XSAVE_FEATURES, %eax
	movl	$-1, %edx
	xsave	(%rsp)
	movq	8(%rbp), %rdi
	call	ft_mcount_early
	movq	%rax, 8(%rbp)
	movl	$XSAVE_FEATURES, %eax
	movl	$-1, %edx
	xrstor	(%rsp)
	jmp	3f
1:	subq	$512, %rsp
	andq	$-16, %rsp
	fxsave	(%rsp)
	movq	8(%rbp), %rdi
	call	ft_mcount_early
	movq	%rax, 8(%rbp)
	fxrstor	(%rsp)
3:	leaq	-80(%rbp), %rsp
	popq	%rbx
	FRAME_RESTORE_CALLER
	ret
	.cfi_endproc
	.size	mcount_early, . - mcount_early

/*
 * A hook of the program's handed its own return address (a pc fix,
 * src/core/detours.c): ThreadSanitizer's __tsan_func_entry, which
 * clang's code calls directly with what its return slot holds.  The fix's
 * stub calls in here, the hook's pc argument in %rdi; return_to_handler
 * there becomes the real return address of the thread's newest frame
 * (graph_newest_return).  Every other register comes back as it was.
 *
 *   stub:  call *ftrace_fix_pc_arg      %rsp 16-byte aligned in here
 *          <the hook's first instructions, relocated>; jmp hook + len
 */
	.p2align 4
	.globl	ftrace_fix_pc_arg
	.hidden	ftrace_fix_pc_arg
	.type	ftrace_fix_pc_arg, @function
ftrace_fix_pc_arg:
	.cfi_startproc
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	leaq	return_to_handler(%rip), %rax
	cmpq	%rax, %rdi
	popq	%rax
	.cfi_adjust_cfa_offset -8
	jne	.Lpc_kept
	FIX_PC_SAVE
	call	graph_newest_return
	movq	%rax, %rdi
	FIX_PC_RESTORE
.Lpc_kept:
	ret
	.cfi_endproc
	.size	ftrace_fix_pc_arg, . - ftrace_fix_pc_arg

	.section .note.GNU-stack, "", @progbits
