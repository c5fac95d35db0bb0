// SPDX-License-Identifier: GPL-2.0
/*
 * glibc's clone(): threads and processes made without pthread or fork.
 * The wrapper starts the child in a function of ours, with the program's
 * function and argument kept at the top of the stack the program gave:
 *
 *   no CLONE_VM       a process, as fork makes: the runtime's fork
 *                     handlers run around it (glibc's clone() runs none),
 *                     but start no thread: its process ends when the
 *                     child's one thread does (no control endpoint)
 *   CLONE_VM          the child runs on its creator's thread-local
 *                     storage: neither is traced while both may run
 *                     (shared_tls.c), until the child's function returns
 *   CLONE_VM, CLONE_VFORK, no CLONE_THREAD
 *                     a process on its parent's memory while the parent
 *                     waits, as vfork()'s child: a state of its own
 *                     (vfork.c)
 *   CLONE_SETTLS      a TLS block of the program's: if it holds the
 *                     runtime's variables (a copy of a thread's block),
 *                     the child is marked never to be traced; if not, no
 *                     hook may read it, and tracing is switched off
 *
 * A clone system call the program makes itself through syscall() is
 * raw_clone.c's; one made by its own instruction meets no wrapper: such
 * a thread shares its creator's state unseen.
 */
#include "args.h"
#include "clone.h"
#include "events.h"
#include "lock.h"
#include "messages.h"
#include "shared_tls.h"
#include "sync.h"
#include "thread.h"
#include "tracers.h"
#include "vfork.h"
#include "../arch/arch.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>

/* ---- the runtime's fork handlers, for a child fork never made ---- */

#define MAX_FORK_HANDLERS 8

struct fork_handlers {
	void (*prepare)(void);
	void (*parent)(void);
	void (*child)(void);
};

static struct fork_handlers handlers[MAX_FORK_HANDLERS];
static unsigned nr_handlers;

int ft_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
	if (nr_handlers == MAX_FORK_HANDLERS || pthread_atfork(prepare, parent, child))
		return -1;
	handlers[nr_handlers++] = (struct fork_handlers){ prepare, parent, child };
	return 0;
}

/* In pthread_atfork's order: prepare handlers last registered first. */
void ft_fork_prepare(void)
{
	for (unsigned i = nr_handlers; i-- > 0;)
		if (handlers[i].prepare)
			handlers[i].prepare();
}

void ft_fork_parent(void)
{
	for (unsigned i = 0; i < nr_handlers; i++)
		if (handlers[i].parent)
			handlers[i].parent();
}

/* Set in the child only: the memory is its own. */
static int by_clone;

int ft_forked_by_clone(void)
{
	return by_clone;
}

void ft_fork_child(int clone_child)
{
	by_clone = clone_child;
	for (unsigned i = 0; i < nr_handlers; i++)
		if (handlers[i].child)
			handlers[i].child();
}

/* ---- the wrapper ---- */

typedef int (*clone_fn)(int (*)(void *), void *, int, void *, ...);

/* What the child starts with, at the top of its stack. */
struct clone_start {
	int (*fn)(void *);
	void *arg;
	_Atomic int sharing;	/* counted among its storage's sharers */
	int process;		/* no CLONE_VM */
};

struct clone_call {
	clone_fn real;
	struct clone_start *start;	/* also the child's stack top */
	int flags;
	void *ptid, *tls, *ctid;
};

static int call_real(const struct clone_call *c, int (*entry)(void *))
{
	return c->real(entry, c->start, c->flags, c->start, c->ptid, c->tls, c->ctid);
}

/* No CLONE_VM: a copy of the process, the creator's frames included,
 * none of which returns on the child's new stack. */
static int start_process(void *p)
{
	struct clone_start *s = p;

	ft_fork_child(1);
	if (ft_current)
		graph_forget_all(ft_current);
	return s->fn(s->arg);
}

static int clone_process(const struct clone_call *c)
{
	int ret;

	ft_fork_prepare();
	ret = call_real(c, start_process);
	ft_fork_parent();
	return ret;
}

static void stop_sharing(struct clone_start *s)
{
	if (atomic_exchange(&s->sharing, 0))
		ft_tls_share_end();
}

/* From the function's return to the exit system call only glibc's code
 * runs, but a signal handler's traced call would find the creator's
 * state, once the share is over: signals stay blocked to the end. */
static int start_sharer(void *p)
{
	struct clone_start *s = p;
	int ret = s->fn(s->arg);
	sigset_t all;

	sigfillset(&all);
	ftrace_thread_mask(SIG_BLOCK, &all, NULL);
	stop_sharing(s);
	return ret;
}

static int clone_sharer(const struct clone_call *c)
{
	int ret;

	c->start->sharing = 1;
	ft_tls_share_begin();
	ret = call_real(c, start_sharer);
	if (ret < 0)
		stop_sharing(c->start);
	return ret;
}

/* A process that runs on its parent's memory while the parent waits, as
 * vfork()'s child: a state of its own (vfork.c). */
static int clone_vfork(const struct clone_call *c, int (*fn)(void *), void *stack, void *arg)
{
	int ret;

	ft_vfork_enter();
	ret = c->real(fn, stack, c->flags, arg, c->ptid, c->tls, c->ctid);
	return (int)ft_vfork_leave(ret < 0 ? -errno : ret);
}

/* A TLS block of the program's that holds our variables: this thread
 * never has a state, whatever its copy of ft_current says (marked after
 * the fork handlers, which end any sharing of the storage). */
static int start_foreign(void *p)
{
	struct clone_start *s = p;

	int ret;

	if (s->process)
		ft_fork_child(1);
	ft_tls_foreign();
	ret = s->fn(s->arg);
	ft_tls_foreign_end();
	return ret;
}

/* Does the child's TLS block hold our variables where this thread's
 * block has them?  Its copy of a mark only the runtime's image has. */
static int tls_block_ours(const void *tls)
{
	uintptr_t tp = arch_clone_thread_pointer(tls);
	uint32_t mark;

	return ft_args_read(tp + ft_tls_mark_offset(), (char *)&mark, sizeof(mark)) ==
	       sizeof(mark) && mark == FT_TLS_MARK;
}

static _Atomic int foreign_said;

/* Any other block: no hook may read it, so no hook may run. */
static int clone_foreign(const struct clone_call *c, int (*fn)(void *), void *stack, void *arg)
{
	int ret;

	if (!tls_block_ours(c->tls)) {
		ftrace_lock();
		ftrace_kill("clone() with CLONE_SETTLS: the child's TLS block is not laid "
			    "out for the runtime");
		ftrace_unlock();
		return c->real(fn, stack, c->flags, arg, c->ptid, c->tls, c->ctid);
	}
	if (!atomic_exchange(&foreign_said, 1))
		ft_warn("clone() with CLONE_SETTLS: the child's calls are not traced (counted lost)");
	c->start->process = !(c->flags & CLONE_VM);
	if (!c->start->process)
		return call_real(c, start_foreign);
	ft_fork_prepare();
	ret = call_real(c, start_foreign);
	ft_fork_parent();
	return ret;
}

/* Room for what the child starts with, on a 16-byte boundary (the
 * strictest stack alignment of the arches), below the top. */
static struct clone_start *start_block(void *stack)
{
	uintptr_t top = (uintptr_t)stack - sizeof(struct clone_start);

	return (struct clone_start *)(top & ~(uintptr_t)15);
}

FT_EXPORT int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	struct clone_call c = { .flags = flags };
	va_list ap;

	REAL(clone_fn, "clone");
	/* The optional arguments are read whether passed or not, as glibc's
	 * clone() passes them on to the system call. */
	va_start(ap, arg);
	c.ptid = va_arg(ap, void *);
	c.tls = va_arg(ap, void *);
	c.ctid = va_arg(ap, void *);
	va_end(ap);
	c.real = real;
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	if (!fn || !stack)	/* glibc's EINVAL */
		return real(fn, stack, flags, arg, c.ptid, c.tls, c.ctid);
	c.start = start_block(stack);
	*c.start = (struct clone_start){ .fn = fn, .arg = arg };
	if (flags & CLONE_SETTLS)
		return clone_foreign(&c, fn, stack, arg);
	if ((flags & (CLONE_VM | CLONE_VFORK | CLONE_THREAD)) == (CLONE_VM | CLONE_VFORK))
		return clone_vfork(&c, fn, stack, arg);
	if (flags & CLONE_VM)
		return clone_sharer(&c);
	return clone_process(&c);
}
