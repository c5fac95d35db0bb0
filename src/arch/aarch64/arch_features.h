/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aarch64: which optional parts of the arch contract it has (the list and
 * the core's defaults for the rest: ../arch.h).
 */
#ifndef FNTRACE_ARCH_FEATURES_H
#define FNTRACE_ARCH_FEATURES_H

/* clang's XRay sleds made return sites (decode.c, ftrace.c, entry.S):
 * "mov x16, x30" before the word that changes, 28 bytes into the sled. */
#define ARCH_HAVE_RETURN_SITES 1
#define ARCH_RETURN_SITE_LEN 4
#define ARCH_RETURN_SITE_PRE 4
#define ARCH_XRAY_SITE_AT 28
/* x0-x7 in ftrace_caller's block, v0-v7 read by entry.S (ftrace.c). */
#define ARCH_HAVE_ARG_REGS 1
/* A B, BL or NOP word changes under running threads with no trap (trap.c). */
#define ARCH_HAVE_LIVE_POKE 1
/* qemu-user is known by its model CPU (trap.c). */
#define ARCH_HAVE_CPU_EMULATED 1
/* A frame's saved x30 has no fixed place in it (fde.c). */
#define ARCH_RETURN_SLOT_FLOATS 1
/* Detours: one B at the entry, a stub per function (ftrace.c,
 * core/detours.c); the B goes in with the breakpoint (trap.c). */
#define ARCH_HAVE_DETOURS 1
/* Library calls through a stub per GOT slot (libcalls.c, core/libcalls.c),
 * ARCH_LIBCALL_STUB bytes each. */
#define ARCH_HAVE_LIBCALLS 1
#define ARCH_LIBCALL_STUB 32

#endif
