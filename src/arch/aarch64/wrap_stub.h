/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The linked-in runtime's __wrap_NAME (core/link_static.c), as top-level
 * assembly: on to the runtime's NAME if it was woken at start-up, else to
 * libc's, by a branch, so that every argument and x30 are the caller's.
 * x16 is the intra-procedure-call scratch register.  b reaches 128 MB
 * (cbnz only 1 MB).
 */
#define ARCH_WRAP_STUB(name)                                                   \
	".text\n"                                                              \
	".globl __wrap_" name "\n"                                             \
	".type __wrap_" name ", %function\n"                                   \
	"__wrap_" name ":\n"                                                   \
	"	adrp x16, ft_linked_awake\n"                                   \
	"	ldr w16, [x16, #:lo12:ft_linked_awake]\n"                      \
	"	cbz w16, 1f\n"                                                 \
	"	b " name "\n"                                                  \
	"1:	b __real_" name "\n"                                           \
	".size __wrap_" name ", . - __wrap_" name "\n"
