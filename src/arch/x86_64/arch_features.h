/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64: which optional parts of the arch contract it has (the list and
 * the core's defaults for the rest: ../arch.h).
 */
#ifndef FNTRACE_ARCH_FEATURES_H
#define FNTRACE_ARCH_FEATURES_H

/* gcc's 5-byte nop before each return (ftrace.c). */
#define ARCH_HAVE_RETURN_SITES 1
/* ftrace_caller's block and the SSE argument registers (ftrace.c, entry.S). */
#define ARCH_HAVE_ARG_REGS 1
/* entry.S takes the graph hooks' common case without C. */
#define ARCH_GRAPH_FAST_PATHS 1
/* Debug registers through ptrace, for fntrace attach (inject.c). */
#define ARCH_HAVE_HW_BREAK 1
/* Library calls through a stub per GOT slot (ftrace.c, core/libcalls.c). */
#define ARCH_HAVE_LIBCALLS 1
/* Detours: a jmp rel32 at the entry, a stub per function (ftrace.c,
 * core/detours.c). */
#define ARCH_HAVE_DETOURS 1
/* A detour's stub calls its function from just before return_to_handler
 * when the graph tracer took the call (ftrace.c, entry.S). */
#define ARCH_DETOUR_PAIRED 1
/* A signal frame's restorer word on the stack, the ucontext above it
 * (trap.c, core/sigframes.c). */
#define ARCH_SIGFRAME_ON_STACK 1

#endif
