/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The macros of x86_64's entry.S (assembly, not C): the frames its hooks
 * set up to call C, and the graph hooks' fast paths, which ftrace_caller,
 * return_to_handler and ftrace_return_caller share.
 */
#ifndef FNTRACE_X86_64_ENTRY_MACROS_H
#define FNTRACE_X86_64_ENTRY_MACROS_H

/*
 * The graph hooks' fast paths.  While function_graph is the one tracer,
 * tracing is on, and no setting asks more of a call than an event and a
 * shadow frame (no filter, argument, depth limit, profile, return value
 * or tracing_thresh), a call's entry and its return, through its return
 * site or through return_to_handler, are done here: five registers saved
 * instead of nine, and no C.  A trigger sends to C only the calls of its
 * function (a timed one's only when long: GRAPH_FAST_SHORT).  They
 * write the event ev_entry()/ev_exit() would
 * (src/core/events.h) and push, hijack or pop the frame as push_frame()
 * and pop_frame() would (src/core/tracer_graph.c), to the layouts of
 * src/core/asm_offsets.h.
 *
 * Anything else goes to the C path, which handles every case: no thread
 * state yet, a busy context (a signal landed inside a hook), no room in
 * the chunk, another CPU, a time too far from the last for the short
 * word, a frame that is not the top one.  Nothing is written before the
 * last of those tests, and the context's busy flag is up from before the
 * first read of its state, as in C: a signal handler that runs meanwhile
 * takes the signal context, and one that ran before the flag went up has
 * left the context as it found it.
 */

/*
 * A frame on %rbp and every caller-saved general register under it (72
 * bytes), for the paths that call C from a place where the compiler
 * expects nothing clobbered: a return site, and mcount before the
 * runtime has started.  FRAME_RESTORE_CALLER expects %rsp back at them.
 */
.macro FRAME_SAVE_CALLER
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
.endm

.macro FRAME_RESTORE_CALLER
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rax
	popq	%rbp
	.cfi_def_cfa %rsp, 8
.endm

/* To \slow unless the settings allow the fast paths.  Clobbers %rax.
 * tracing_thresh too sends every call to C: an entry then writes no
 * event, and a return decides by the call's length whether to write a
 * whole call (tracer_graph.c). */
.macro GRAPH_FAST_ALLOWED slow
	cmpl	$0, ft_graph+FT_GRAPH_TRACE(%rip)
	je	\slow
	movq	ft_graph+FT_GRAPH_SETTINGS(%rip), %rax
	orq	ft_graph+FT_GRAPH_SETTINGS+8(%rip), %rax
	orq	ft_graph+FT_GRAPH_SETTINGS+16(%rip), %rax
	orq	ft_graph+FT_GRAPH_THRESH(%rip), %rax
	jnz	\slow
	cmpl	$0, ft_graph_broken(%rip)
	jne	\slow
	cmpl	$0, ft_tracing_on(%rip)
	je	\slow
.endm

/* \base+\index: the flags word of the record whose id is %esi (ids
 * count from 1), found as ftrace_rec_get() finds it.  Clobbers %eax. */
.macro REC_FLAGS_AT base, index
	leal	-1(%rsi), %eax
	movl	%eax, %e\index
	shrl	$FT_REC_BLOCK_SHIFT, %eax
	leaq	ftrace_rec_blocks(%rip), %\base
	movq	(%\base,%rax,8), %\base
	andl	$(1 << FT_REC_BLOCK_SHIFT) - 1, %e\index
	imull	$FT_REC_SIZE, %e\index, %e\index
.endm

/* %rdi: the thread's state, its own context now busy, the hook's stack
 * at \sp; or to \slow, untouched. */
.macro GRAPH_FAST_ENTER sp, slow
	movq	ft_current@GOTTPOFF(%rip), %rdi
	movq	%fs:(%rdi), %rdi
	testq	%rdi, %rdi
	jz	\slow
	cmpl	$0, FT_CTX_BUSY(%rdi)
	jne	\slow
	movl	$1, FT_CTX_BUSY(%rdi)
	movq	\sp, FT_CTX_BUSY_SP(%rdi)
.endm

/* To \idle unless the chunk has room for the longest event.  Clobbers
 * %rax. */
.macro GRAPH_FAST_ROOM idle
	movq	FT_CTX_END(%rdi), %rax
	subq	FT_CTX_POS(%rdi), %rax
	cmpq	$FT_MAX_EVENT_WORDS * 4, %rax
	jl	\idle
.endm

/* %rax: now; %rdx: now less the time of the context's last event. */
.macro GRAPH_FAST_CLOCK
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, %rdx
	subq	FT_CTX_LAST(%rdi), %rdx
.endm

/* The head word %edx, written at the context's pos as ev_commit() does;
 * its time %rax becomes the last. */
.macro GRAPH_FAST_COMMIT
	movq	%rax, FT_CTX_LAST(%rdi)
	movq	FT_CTX_POS(%rdi), %rax
	movl	%edx, (%rax)
	addq	$4, %rax
	movq	%rax, FT_CTX_POS(%rdi)
.endm

/* The registers the fast paths use, with CFI where the code has it
 * (return_to_handler, whose caller's return address is gone, has none). */
.macro SAVE_FIVE cfi=1
	.irp reg, rax, rcx, rdx, rsi, rdi
	pushq	%\reg
	.if \cfi
	.cfi_adjust_cfa_offset 8
	.endif
	.endr
.endm

.macro RESTORE_FIVE cfi=1
	.irp reg, rdi, rsi, rdx, rcx, rax
	popq	%\reg
	.if \cfi
	.cfi_adjust_cfa_offset -8
	.endif
	.endr
.endm

/* The caller-saved registers but %rdi, which a pc fix returns in: eight,
 * so that %rsp stays 16-byte aligned for the call into C. */
.macro FIX_PC_SAVE
	.irp reg, rax, rcx, rdx, rsi, r8, r9, r10, r11
	pushq	%\reg
	.cfi_adjust_cfa_offset 8
	.endr
.endm

.macro FIX_PC_RESTORE
	.irp reg, r11, r10, r9, r8, rsi, rdx, rcx, rax
	popq	%\reg
	.cfi_adjust_cfa_offset -8
	.endr
.endm

/*
 * Where LeakSanitizer will judge the program's memory at exit
 * (ft_scrub_spills, src/core/sanitized.c), the registers a hook saved on
 * the stack do not stay there: LSan reads the whole stack for pointers,
 * and a dead register's copy (a pointer the program had just dropped, in
 * %rdi at a return) left below the traced function's frame kept a leaked
 * block alive in its eyes.  SCRUB_SAVED zeroes the \words words just below
 * %rsp, where the hook saved them; elsewhere it costs a compare.  (Not the
 * stack the hook's C used below: how deep it went is not known, and below
 * it may lie the end of a thread's stack, or a signal stack's, and the
 * heap.)
 */

.macro SCRUB_SAVED words
	cmpl	$0, ft_scrub_spills(%rip)
	je	.Lscrubbed\@
	.irp i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	.if \i <= \words
	movq	$0, -8*\i(%rsp)
	.endif
	.endr
.Lscrubbed\@:
.endm

/* A timed call (the frame at %rcx, the time now in %rax) to \idle,
 * where C may snapshot it, unless it was shorter than every duration
 * trigger's and than tracing_max_latency (triggers.h). */
.macro GRAPH_FAST_SHORT idle
	testl	$FT_FRAME_TIMED, FT_FRAME_FLAGS(%rcx)
	jz	.Lshort\@
	subq	FT_FRAME_TIME(%rcx), %rax
	cmpq	ft_timed_shortest(%rip), %rax
	jae	\idle
	cmpq	ft_timed_max(%rip), %rax
	jae	\idle
	addq	FT_FRAME_TIME(%rcx), %rax
.Lshort\@:
.endm

/*
 * A return through the slot at %rsi closes the top frame, as pop_frame()
 * would: there must be one, with that slot, traced, no overrun to tell,
 * room, a time that fits the exit word, and if timed, a short call; or
 * to \idle, untouched.
 * %rcx: the frame, whose words stay readable until the guard goes down.
 */
.macro GRAPH_FAST_POP idle
	movl	FT_CTX_DEPTH(%rdi), %ecx
	testl	%ecx, %ecx
	jz	\idle
	shlq	$FT_FRAME_SHIFT, %rcx
	leaq	FT_CTX_SIZE - (1 << FT_FRAME_SHIFT)(%rdi,%rcx), %rcx
	cmpq	%rsi, FT_FRAME_RETP(%rcx)
	jne	\idle
	movl	FT_FRAME_FLAGS(%rcx), %eax
	andl	$~(FT_FRAME_TIMED | FT_FRAME_PAIRED), %eax
	cmpl	$FT_FRAME_TRACED, %eax
	jne	\idle
	movq	FT_CTX_OVERRUNS(%rdi), %rax
	cmpq	FT_CTX_OVERRUNS_WRITTEN(%rdi), %rax
	jne	\idle
	GRAPH_FAST_ROOM \idle
	GRAPH_FAST_CLOCK
	GRAPH_FAST_SHORT \idle
	cmpq	$FT_EXIT_MAX_DELTA, %rdx
	ja	\idle
	leal	1(,%rdx,4), %edx		/* the exit word: delta << 2 | 1 */
	GRAPH_FAST_COMMIT
	decl	FT_CTX_DEPTH(%rdi)
.endm

#endif
