/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The linked-in runtime's __wrap_NAME (core/link_static.c), as top-level
 * assembly: on to the runtime's NAME if it was woken at start-up, else to
 * libc's, by a jump, so that every argument and ra are the caller's.  The
 * target's address goes in t9, where a PIC function computes its gp from.
 * Absolute addresses: a static program is not position-independent.
 *
 *   lui t9, %hi(flag); lw t9, %lo(flag)(t9); bnez t9, 1f
 *   t9 = __real_NAME; jr t9       1: t9 = NAME; jr t9
 */
#define ARCH_WRAP_STUB(name)                                                   \
	".text\n"                                                              \
	".set push\n"                                                          \
	".set noreorder\n"                                                     \
	".globl __wrap_" name "\n"                                             \
	".type __wrap_" name ", @function\n"                                   \
	".ent __wrap_" name "\n"                                               \
	"__wrap_" name ":\n"                                                   \
	"	lui $25, %hi(ft_linked_awake)\n"                               \
	"	lw $25, %lo(ft_linked_awake)($25)\n"                           \
	"	bnez $25, 1f\n"                                                \
	"	nop\n"                                                         \
	"	lui $25, %hi(__real_" name ")\n"                               \
	"	addiu $25, $25, %lo(__real_" name ")\n"                        \
	"	jr $25\n"                                                      \
	"	nop\n"                                                         \
	"1:	lui $25, %hi(" name ")\n"                                      \
	"	addiu $25, $25, %lo(" name ")\n"                               \
	"	jr $25\n"                                                      \
	"	nop\n"                                                         \
	".end __wrap_" name "\n"                                               \
	".size __wrap_" name ", . - __wrap_" name "\n"                         \
	".set pop\n"
