/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mips: which optional parts of the arch contract it has (the list and
 * the core's defaults for the rest: ../arch.h).
 */
#ifndef FNTRACE_ARCH_FEATURES_H
#define FNTRACE_ARCH_FEATURES_H

/* A module's GOT and PLT slots of _mcount are bound before its sites
 * call through them (bind.c). */
#define ARCH_HAVE_MODULE_PREPARE 1

/* o32 keeps no frame-pointer chain a stack trace could follow. */
#define ARCH_FRAME_CHAIN 0

#endif
