// SPDX-License-Identifier: GPL-2.0
/*
 * syscall(): the system calls a program makes itself.
 *
 * A program may make with syscall() what it would otherwise ask of a
 * glibc function the runtime wraps: a clone (raw_clone.c), a change of
 * its signal mask (sigmask.c), or a seccomp filter (seccomp.c).  Those
 * are handled as their wrappers handle them; every other system call
 * goes straight through.
 *
 * The runtime's own syscall() calls come here too (it is first in every
 * lookup when preloaded; `--wrap=syscall` reaches the runtime's objects
 * too when it is linked in): those that must not be handled as the
 * program's take ft_syscall_direct().  The real syscall() is found at
 * start-up (ft_raw_syscall_init), before any call can come from a signal
 * handler.
 */
#include "ftrace.h"
#include "raw_syscall.h"

#include <errno.h>
#include <stdarg.h>

typedef long (*syscall_fn)(long, ...);

static syscall_fn real_syscall;

void ft_raw_syscall_init(void)
{
	if (!real_syscall)
		real_syscall = (syscall_fn)ft_real("syscall");
}

long ft_syscall_pass(long nr, const long *a)
{
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

long ft_syscall_direct(long nr, long a0, long a1, long a2, long a3)
{
	ft_raw_syscall_init();
	return real_syscall(nr, a0, a1, a2, a3, 0L, 0L);
}

/* glibc's syscall() reads six arguments whatever the call; so do we. */
FT_EXPORT long syscall(long nr, ...)
{
	long a[6], ret;
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	ft_raw_syscall_init();
	if (!real_syscall) {
		errno = ENOSYS;
		return -1;
	}
	if (ft_raw_clone(nr, a, &ret) || ft_raw_sigmask(nr, a, &ret) ||
	    ft_raw_seccomp(nr, a, &ret))
		return ret;
	return ft_syscall_pass(nr, a);
}
