// SPDX-License-Identifier: GPL-2.0
/*
 * syscall(): the clone system calls a program makes itself.
 *
 * glibc's fork() and clone() have wrappers (clone.c), but a program may
 * also make a process with syscall(SYS_clone, SIGCHLD, 0, ...),
 * syscall(SYS_clone3, &args, size) or syscall(SYS_fork): to choose
 * clone3's flags (CLONE_PIDFD, CLONE_INTO_CGROUP) that glibc has no
 * wrapper for, or to skip the program's own fork handlers.  Without the
 * runtime's handlers, such a child writes into the chunks its parent
 * holds (the buffer is shared memory) under its parent's pid: the
 * parent's calls are overwritten and the child's are nowhere.  So the
 * handlers run around it, as for fork():
 *
 *   no CLONE_VM   a process: ft_fork_prepare(), the system call, then
 *                 ft_fork_child(0) in the child (a process as fork's,
 *                 which may live on and make threads) or ft_fork_parent()
 *   CLONE_VM      a thread, or a process on its parent's memory, that
 *                 returns from the system call on the creator's
 *                 thread-local storage, where no hook can tell the two
 *                 apart: tracing is switched off first, with the reason
 *
 * Every other system call goes straight through.  The runtime's own
 * syscall() calls come here too when it is preloaded (it is first in
 * every lookup): the real one is found at start-up (ft_raw_clone_init),
 * before any of them can come from a signal handler.
 */
#include "args.h"
#include "clone.h"
#include "ftrace.h"
#include "lock.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/syscall.h>

typedef long (*syscall_fn)(long, ...);

static syscall_fn real_syscall;

void ft_raw_clone_init(void)
{
	if (!real_syscall)
		real_syscall = (syscall_fn)ft_real("syscall");
}

enum raw_kind { RAW_OTHER, RAW_PROCESS, RAW_SHARED };

/* clone3's flags are the first field of the struct it is given; an
 * unreadable struct is the kernel's to refuse (EFAULT). */
static enum raw_kind clone3_kind(long args)
{
	uint64_t flags;

	if (ft_args_read((uintptr_t)args, (char *)&flags, sizeof(flags)) != sizeof(flags))
		return RAW_OTHER;
	return flags & CLONE_VM ? RAW_SHARED : RAW_PROCESS;
}

/* Every arch's clone takes its flags first. */
static enum raw_kind kind_of(long nr, const long *a)
{
	if (nr == SYS_clone)
		return a[0] & CLONE_VM ? RAW_SHARED : RAW_PROCESS;
	if (nr == SYS_clone3)
		return clone3_kind(a[0]);
#ifdef SYS_fork
	if (nr == SYS_fork)
		return RAW_PROCESS;
#endif
#ifdef SYS_vfork
	if (nr == SYS_vfork)
		return RAW_SHARED;
#endif
	return RAW_OTHER;
}

static long pass(long nr, const long *a)
{
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* The child continues on a copy of the stack its parent called from, so
 * the frames it inherits return there as after fork(). */
static long raw_process(long nr, const long *a)
{
	long ret;
	int err;

	ft_fork_prepare();
	ret = pass(nr, a);
	err = errno;
	if (ret == 0)
		ft_fork_child(0);
	else
		ft_fork_parent();
	errno = err;
	return ret;
}

static long raw_shared(long nr, const long *a)
{
	ftrace_lock();
	ftrace_kill("a clone with CLONE_VM through syscall(): its thread would share its "
		    "creator's thread-local storage, where the runtime cannot tell them apart");
	ftrace_unlock();
	return pass(nr, a);
}

/* glibc's syscall() reads six arguments whatever the call; so do we. */
FT_EXPORT long syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	ft_raw_clone_init();
	if (!real_syscall) {
		errno = ENOSYS;
		return -1;
	}
	switch (kind_of(nr, a)) {
	case RAW_PROCESS:
		return raw_process(nr, a);
	case RAW_SHARED:
		return raw_shared(nr, a);
	default:
		return pass(nr, a);
	}
}
