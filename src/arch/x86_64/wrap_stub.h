/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The linked-in runtime's __wrap_NAME (core/link_static.c), as top-level
 * assembly: on to the runtime's NAME if it was woken at start-up, else to
 * libc's, by a jump, so that every argument (va_list ones too) and the
 * return address are the caller's.
 */
#define ARCH_WRAP_STUB(name)                                                   \
	".text\n"                                                              \
	".globl __wrap_" name "\n"                                             \
	".type __wrap_" name ", @function\n"                                   \
	"__wrap_" name ":\n"                                                   \
	"	cmpl $0, ft_linked_awake(%rip)\n"                              \
	"	jne " name "\n"                                                \
	"	jmp __real_" name "\n"                                         \
	".size __wrap_" name ", . - __wrap_" name "\n"
