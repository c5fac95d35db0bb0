/* SPDX-License-Identifier: GPL-2.0 */
/*
 * riscv64: which optional parts of the arch contract it has (the list and
 * the core's defaults for the rest: ../arch.h).
 */
#ifndef FNTRACE_ARCH_FEATURES_H
#define FNTRACE_ARCH_FEATURES_H

/* a0-a7 in ftrace_caller's block, fa0-fa7 read by entry.S (ftrace.c). */
#define ARCH_HAVE_ARG_REGS 1

/* Its frame pointer is the CFA: the frame record (s0, ra) lies below. */
#define ARCH_FRAME_RECORD (-2)

#endif
