/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The linked-in runtime's __wrap_NAME (core/link_static.c), as top-level
 * assembly: on to the runtime's NAME if it was woken at start-up, else to
 * libc's, by a jump, so that every argument and the return address are
 * the caller's.  The flag is read relative to the code (%ecx, which no
 * wrapped function takes an argument in), so a static PIE links too.
 */
#define ARCH_WRAP_STUB(name)                                                   \
	".text\n"                                                              \
	".globl __wrap_" name "\n"                                             \
	".type __wrap_" name ", @function\n"                                   \
	"__wrap_" name ":\n"                                                   \
	"	call 1f\n"                                                     \
	"1:	popl %ecx\n"                                                   \
	"	cmpl $0, ft_linked_awake - 1b(%ecx)\n"                         \
	"	jne " name "\n"                                                \
	"	jmp __real_" name "\n"                                         \
	".size __wrap_" name ", . - __wrap_" name "\n"
