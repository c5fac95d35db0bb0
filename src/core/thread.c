// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread tracer state, made on a thread's first traced call and
 * released when the thread ends.  It is mapped, not malloc()ed: the
 * program's malloc may itself be traced.
 */
#include "buffer.h"
#include "events.h"
#include "funcs.h"
#include "tracers.h"

#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

__thread struct ft_thread *ft_current;
int ft_have_rseq;

static pthread_key_t exit_key;
static int ready;

/*
 * Frames still open when a thread ends never returned: pthread_cancel's
 * unwinding (glibc's, which no wrapper of ours sees) or a pthread_exit
 * the wrapper missed.  They are closed as unwound.
 */
static void thread_exit(void *arg)
{
	struct ft_thread *t = arg;

	graph_unwind_below(t, UINTPTR_MAX);
	t->busy = 1;
	ft_buffer_release(t);
	ft_current = NULL;
	munmap(t, sizeof(*t));
}

struct ft_thread *ft_thread_create(void)
{
	static __thread int creating;
	struct ft_thread *t;

	if (!ready || creating || !ft_buffer_attached())
		return NULL;
	creating = 1;
	t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED) {
		creating = 0;
		return NULL;
	}
	t->pid = getpid();
	t->tid = syscall(SYS_gettid);
	t->cpu = ~0u;
	pthread_setspecific(exit_key, t);
	ft_current = t;
	creating = 0;
	return t;
}

/* The child of a fork has only the forking thread, and its own pid. */
static void after_fork_child(void)
{
	struct ft_thread *t = ft_current;

	if (t) {
		ft_buffer_forget(t);
		t->pid = getpid();
		t->tid = syscall(SYS_gettid);
	}
	ft_funcs_reopen_after_fork();
}

int ft_threads_init(void)
{
	ft_have_rseq = __rseq_size > 0;
	if (pthread_key_create(&exit_key, thread_exit) ||
	    pthread_atfork(NULL, NULL, after_fork_child))
		return -1;
	ready = 1;
	return 0;
}
