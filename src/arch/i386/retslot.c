// SPDX-License-Identifier: GPL-2.0
/*
 * i386: which return slot a return to return_to_handler came from.
 *
 * An i386 callee may pop its arguments as it returns: "ret $4" drops the
 * hidden pointer of a function returning a struct (every one, in the
 * SysV i386 ABI), "ret $n" a stdcall function's arguments.  Then %esp at
 * return_to_handler is not just above the slot but n bytes higher:
 *
 *   slot:      return_to_handler       <- the slot the shadow frame has
 *   slot + 4:  struct pointer (popped)
 *   slot + 8:  ...                     <- %esp after "ret $4"
 *
 * The slot is the first of %esp - 4, %esp - 8, ... that one of the
 * thread's shadow frames has: the caller's slot lies above the popped
 * arguments, and a frame the return skipped (a longjmp) below the real
 * slot, so the first match is the returning frame.  Plain returns, the
 * common case, match at once, on the top frame.
 */
#include "../../core/events.h"
#include "../../core/tracers.h"

/* Bytes of arguments a callee may pop that are looked for. */
#define MAX_POPPED 64

uintptr_t *i386_return_slot(uintptr_t sp);

uintptr_t *i386_return_slot(uintptr_t sp)
{
	const struct ft_thread *t = ft_current;
	uintptr_t *slot = (uintptr_t *)sp - 1;

	for (unsigned n = 0; t && n <= MAX_POPPED / 4; n++)
		if (graph_real_return(t, slot - n))
			return slot - n;
	return slot;
}
