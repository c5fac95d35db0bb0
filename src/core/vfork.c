// SPDX-License-Identifier: GPL-2.0
/*
 * A vfork() child runs on its parent's memory, its thread-local storage
 * included, until it execs or ends, while its parent waits: ft_current
 * is one word for both.  So the parent's state is put aside before the
 * system call, and the child's first traced call makes a state of its
 * own, under its own pid (with a function table of its own, since its
 * events are a process's); when the parent runs again, the child is gone
 * (exec'd or ended), its state is released (what it wrote handed to the
 * recorder, its open frames closed) and the parent's is back:
 *
 *   parent  ft_vfork_enter: push ft_current, ft_current = NULL
 *           vfork system call  ............ child: its own state, lazily
 *   parent  ft_vfork_leave: release the child's, pop ft_current
 *
 * vfork() cannot be a C function: the child returns from it and its calls
 * reuse the stack where the function's return address was.  Each arch's
 * vfork.S keeps that address in a register, as glibc's does, and calls
 * these around its own system call.  A child of a child nests (a stack of
 * put-aside states); past its depth, the storage counts as shared
 * (shared_tls.c): untraced, counted.
 */
#include "events.h"
#include "funcs_file.h"
#include "shared_tls.h"
#include "thread.h"
#include "vfork.h"

#include <errno.h>
#include <unistd.h>

#define MAX_NESTED 8

struct vfork_stack {
	struct ft_thread *parent[MAX_NESTED];
	pid_t pid[MAX_NESTED];		/* whose state it is */
	unsigned depth;
};

static __thread struct vfork_stack vforks;

void ft_vfork_enter(void)
{
	unsigned i = vforks.depth++;

	if (i >= MAX_NESTED) {
		ft_tls_share_begin();
		return;
	}
	vforks.parent[i] = ft_current;
	vforks.pid[i] = getpid();
	ft_current = NULL;
}

long ft_vfork_leave(long ret)
{
	unsigned i = --vforks.depth;
	struct ft_thread *child = ft_current;

	if (i >= MAX_NESTED) {
		ft_tls_share_end();
	} else {
		if (child)
			ft_thread_release(child);
		ft_thread_adopt(vforks.parent[i]);
	}
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/* Between its enter and its leave, the parent (a signal handler's call)
 * makes no state: the child would take it for its own. */
int ft_vfork_may_create(void)
{
	unsigned i = vforks.depth;

	return i == 0 || i > MAX_NESTED || getpid() != vforks.pid[i - 1];
}

void ft_vfork_created(void)
{
	if (vforks.depth)
		ft_funcs_write_for_child();
}
