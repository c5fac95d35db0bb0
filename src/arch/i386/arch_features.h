/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i386: which optional parts of the arch contract it has (the list and
 * the core's defaults for the rest: ../arch.h).
 */
#ifndef FNTRACE_ARCH_FEATURES_H
#define FNTRACE_ARCH_FEATURES_H

/* clone()'s tls argument is a struct user_desc (tls.c). */
#define ARCH_HAVE_CLONE_TLS_DESC 1

#endif
