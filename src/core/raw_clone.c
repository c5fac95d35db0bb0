// SPDX-License-Identifier: GPL-2.0
/*
 * The clone system calls a program makes through syscall().
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
 */
#include "args.h"
#include "clone.h"
#include "ftrace.h"
#include "lock.h"
#include "raw_syscall.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>

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

/* The child continues on a copy of the stack its parent called from, so
 * the frames it inherits return there as after fork(). */
static long raw_process(long nr, const long *a)
{
	long ret;
	int err;

	ft_fork_prepare();
	ret = ft_syscall_pass(nr, a);
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
	return ft_syscall_pass(nr, a);
}

int ft_raw_clone(long nr, const long *a, long *ret)
{
	switch (kind_of(nr, a)) {
	case RAW_PROCESS:
		*ret = raw_process(nr, a);
		return 1;
	case RAW_SHARED:
		*ret = raw_shared(nr, a);
		return 1;
	default:
		return 0;
	}
}
