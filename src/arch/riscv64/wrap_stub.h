/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The linked-in runtime's __wrap_NAME (core/link_static.c), as top-level
 * assembly: on to the runtime's NAME if it was woken at start-up, else to
 * libc's, by a tail call, so that every argument and ra are the caller's.
 * t0 is a temporary no call keeps; tail itself uses t1.
 */
#define ARCH_WRAP_STUB(name)                                                   \
	".text\n"                                                              \
	".globl __wrap_" name "\n"                                             \
	".type __wrap_" name ", @function\n"                                   \
	"__wrap_" name ":\n"                                                   \
	"	lla t0, ft_linked_awake\n"                                     \
	"	lw t0, 0(t0)\n"                                                \
	"	beqz t0, 1f\n"                                                 \
	"	tail " name "\n"                                               \
	"1:	tail __real_" name "\n"                                        \
	".size __wrap_" name ", . - __wrap_" name "\n"
