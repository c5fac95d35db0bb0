/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Byte compares and copies for the code a breakpoint runs in another
 * thread's signal handler, and for what it reads: never the C library's,
 * which a sanitizer intercepts.  ThreadSanitizer checked the trap
 * handler's memcmp() of a batch's bytes against the memcpy() that filled
 * them on the patching thread, saw no order between the two (the
 * runtime's atomics are not instrumented), and reported a race; its
 * symbolizer then waited for the loader's lock, which the patching thread
 * held while it waited for the trapped thread: an attach hung.  The
 * runtime is built with -fno-tree-loop-distribute-patterns, so these
 * loops stay loops.
 */
#ifndef FNTRACE_PLAIN_BYTES_H
#define FNTRACE_PLAIN_BYTES_H

static inline int plain_bytes_equal(const void *a, const void *b, unsigned n)
{
	const unsigned char *p = a, *q = b;

	for (unsigned i = 0; i < n; i++)
		if (p[i] != q[i])
			return 0;
	return 1;
}

static inline void plain_bytes_copy(void *to, const void *from, unsigned n)
{
	unsigned char *d = to;
	const unsigned char *s = from;

	for (unsigned i = 0; i < n; i++)
		d[i] = s[i];
}

#endif
