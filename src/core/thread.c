// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread tracer state, made on a thread's first traced call and
 * released when the thread ends.  It is mapped, not malloc()ed: the
 * program's malloc may itself be traced.
 *
 * A tracer switched on in a running process would make every thread pay,
 * inside its first traced call, for an mmap and the first touch of the
 * fresh page: tens of microseconds on a virtual machine.  So whoever
 * switches a tracer on first maps the state for as many threads as the
 * process has, the first MAX_POPULATED of them already populated; a
 * thread takes its slot with one atomic add, and maps its own only when
 * the slots are gone.  Every slot is mapped, populated or not: a thousand
 * threads that each made their own mmap at once queued on the process's
 * mmap lock, and so did the control thread behind them, for seconds.
 */
#include "buffer.h"
#include "clone.h"
#include "events.h"
#include "funcs_file.h"
#include "limits.h"
#include "own_work.h"
#include "sanitized.h"
#include "shared_tls.h"
#include "sync.h"
#include "tasks.h"
#include "thread.h"
#include "tracers.h"
#include "vfork.h"

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__thread struct ft_thread *ft_current;
long ft_cpu_offset;
static __thread const uint32_t no_cpu = ~0u;
/* Only the runtime's TLS image has it, where this variable lies: a block
 * with it is a copy of a thread's (clone.c). */
static __thread const uint32_t tls_mark = FT_TLS_MARK;

static pthread_key_t exit_key;
static int ready;

/* Thread states are mapped and unmapped one by one, in whole pages. */
#define STATE_SIZE ((sizeof(struct ft_thread) + 4095) & ~(size_t)4095)
#define MAX_PREPARED 4096
#define MAX_POPULATED 256

struct state_pool {
	char *base;
	unsigned count;
	_Atomic unsigned next;
};

/* Replaced only once used up; never freed (a thread may be taking from it). */
static struct state_pool *_Atomic pool;
/* Threads that have a state now. */
static _Atomic unsigned nr_states;

/* Every state, for the grace period of ft_threads_quiescent(). */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ft_thread *registry;

static void registry_add(struct ft_thread *t)
{
	ft_mutex_lock(&registry_lock);
	t->prev = NULL;
	t->next = registry;
	if (registry)
		registry->prev = t;
	registry = t;
	ft_mutex_unlock(&registry_lock);
}

static void registry_del(struct ft_thread *t)
{
	ft_mutex_lock(&registry_lock);
	if (t->prev)
		t->prev->next = t->next;
	else
		registry = t->next;
	if (t->next)
		t->next->prev = t->prev;
	ft_mutex_unlock(&registry_lock);
}

/*
 * Frames still open when a thread ends never returned: pthread_cancel's
 * unwinding (glibc's, which no wrapper of ours sees) or a pthread_exit
 * the wrapper missed.  They are closed as unwound.
 */
static void thread_exit(void *arg)
{
	struct ft_thread *t = arg;
	uint32_t pid = t->pid, tid = t->tid;
	uint64_t from = ft_own_work_begin();

	graph_unwind_below(t, UINTPTR_MAX);
	graph_say_missed(t);
	t->own.busy = t->signal.busy = 1;
	ft_buffer_release(t);
	/* Unlinked with both contexts busy: no hook of a signal handler
	 * makes a lookup, or a state (which would take the lock), from here. */
	registry_del(t);
	ft_current = NULL;
	atomic_fetch_sub(&nr_states, 1);
	munmap(t, STATE_SIZE);
	ft_own_work_end_of(pid, tid, from);
}

/* The state of a thread that has ended elsewhere: a vfork() child's,
 * released by its parent once it runs again. */
void ft_thread_release(struct ft_thread *t)
{
	struct ft_thread *current = ft_current;

	thread_exit(t);
	ft_current = current;
}

/* The thread's state is t again (its vfork() child had one of its own). */
void ft_thread_adopt(struct ft_thread *t)
{
	ft_current = t;
	pthread_setspecific(exit_key, t);
}

static struct ft_thread *state_from_pool(void)
{
	struct state_pool *p = atomic_load(&pool);
	unsigned i;

	if (!p)
		return NULL;
	i = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
	return i < p->count ? (struct ft_thread *)(p->base + (size_t)i * STATE_SIZE) : NULL;
}

static struct ft_thread *new_state(void)
{
	struct ft_thread *t = state_from_pool();

	if (t)
		return t;
	t = mmap(NULL, STATE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return t == MAP_FAILED ? NULL : t;
}

unsigned ft_count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	unsigned n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.' && !ft_task_foreign(atoi(e->d_name));
	if (d)
		closedir(d);
	return n;
}

/* Slots for the threads that have no state yet: none if every thread
 * has one (a tracer switched again and again maps nothing more). */
void ft_threads_prepare(void)
{
	struct state_pool *p = atomic_load(&pool), *fresh;
	unsigned n = ft_count_threads(), have = atomic_load(&nr_states);

	if ((p && atomic_load(&p->next) < p->count) || n <= have)
		return;
	n -= have;
	n = n > MAX_PREPARED ? MAX_PREPARED : n;
	/* The pool's own page, then the slots, each on a page boundary. */
	ft_limits_grow(4096 + (size_t)n * STATE_SIZE);
	fresh = mmap(NULL, 4096 + (size_t)n * STATE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fresh == MAP_FAILED)
		return;
	/* Where the kernel cannot (before 5.14), a slot's first touch faults. */
	madvise(fresh, 4096 + (size_t)(n < MAX_POPULATED ? n : MAX_POPULATED) * STATE_SIZE,
		MADV_POPULATE_WRITE);
	fresh->base = (char *)fresh + 4096;
	fresh->count = n;
	atomic_store(&pool, fresh);
}

static void context_init(struct ft_context *c, struct ft_thread *t, uint32_t number,
			 uint32_t max_depth)
{
	c->thread = t;
	c->number = number;
	c->max_depth = max_depth;
	c->cpu = ~0u;
}

struct ft_thread *ft_thread_create(void)
{
	static __thread int creating;
	struct ft_thread *t;
	uint64_t from;

	if (!ready || creating)
		return NULL;
	/* Threads on one storage (shared_tls.c) make no state of theirs. */
	if (unlikely(ft_tls_shared()) && (!ft_tls_share_over() || ft_current))
		return ft_current;
	if (!ft_buffer_attached() || !ft_vfork_may_create())
		return NULL;
	creating = 1;
	from = ft_own_work_begin();
	t = new_state();
	if (!t) {
		creating = 0;
		return NULL;
	}
	atomic_fetch_add(&nr_states, 1);
	t->pid = getpid();
	t->tid = syscall(SYS_gettid);
	context_init(&t->own, t, 0, FT_SHADOW_DEPTH);
	context_init(&t->signal, t, 1, FT_SIGNAL_DEPTH);
	ft_buffer_thread_begins(t);
	ft_buffer_name(t);
	registry_add(t);
	pthread_setspecific(exit_key, t);
	ft_current = t;
	ft_vfork_created();
	ft_own_work_end_of(t->pid, t->tid, from);
	creating = 0;
	return t;
}

/*
 * A hook found the thread's own context busy: a signal landed inside the
 * tracer, and its handler runs in the signal context.  If that is busy
 * too, a signal interrupted it inside the tracer in turn: its event is
 * counted, with one atomic add, since the handler that counts may itself
 * be interrupted, and said once the signal context is left.
 */
struct ft_context *ft_signal_enter(struct ft_thread *t, uintptr_t sp)
{
	struct ft_context *c = &t->signal;

	if (c->busy) {
		atomic_fetch_add_explicit(&t->nested_lost, 1, memory_order_relaxed);
		return NULL;
	}
	c->busy = 1;
	c->busy_sp = sp;
	return c;
}

/* Counted after the guard is down: a signal that came while it was up,
 * and counted, is seen; one that comes after is traced. */
void ft_signal_leave(struct ft_thread *t)
{
	struct ft_context *c = &t->signal;

	c->busy = 0;
	while (unlikely(atomic_load_explicit(&t->nested_lost, memory_order_relaxed))) {
		c->busy = 1;
		ft_buffer_add_lost(c, atomic_exchange(&t->nested_lost, 0));
		c->busy = 0;
	}
}

/* How long a grace period waits for a thread inside a tracer. */
#define QUIESCENT_WAIT_NS 50000000

static int busy_now(const struct ft_thread *t)
{
	return *(const volatile uint32_t *)&t->own.busy ||
	       *(const volatile uint32_t *)&t->signal.busy;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/*
 * A thread seen not busy has left every tracer it was in before the
 * caller's sync, and enters the next one after it, loading what was
 * published before.  Signals are blocked while the lock is held: a
 * handler's first traced call on this thread would take it again.  This
 * runs inside dl_iterate_phdr: nothing here may go through dlsym.
 */
int ft_threads_quiescent(void)
{
	int64_t deadline = now_ns() + QUIESCENT_WAIT_NS;
	sigset_t all, old;
	int ok = 1;

	sigfillset(&all);
	sigdelset(&all, SIGTRAP);	/* blocked, our breakpoints kill */
	ftrace_thread_mask(SIG_BLOCK, &all, &old);
	ft_mutex_lock(&registry_lock);
	for (const struct ft_thread *t = registry; t && ok; t = t->next)
		while (t != ft_current && busy_now(t) && ok) {
			ok = now_ns() < deadline;
			sched_yield();
		}
	ft_mutex_unlock(&registry_lock);
	ftrace_thread_mask(SIG_SETMASK, &old, NULL);
	return ok;
}

/* The child of a fork has only the forking thread, and its own pid. */
static void after_fork_child(void)
{
	uint64_t from = ft_own_work_begin();
	struct ft_thread *t;

	ft_tls_share_after_fork();
	t = ft_current;

	atomic_store(&nr_states, t != NULL);
	registry_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	registry = t;
	if (t) {
		t->prev = t->next = NULL;
		ft_buffer_forget(t);
		graph_forget_missed(t);
		t->pid = getpid();
		t->tid = syscall(SYS_gettid);
		ft_buffer_name(t);
	}
	ft_funcs_reopen_after_fork();
	ft_own_share_end(from);
}

long ft_tls_mark_offset(void)
{
	return (const char *)&tls_mark - (const char *)__builtin_thread_pointer();
}

/* The offset is the same in every thread: the runtime's thread-locals
 * are in the static TLS block (initial-exec), as glibc's rseq area is. */
static long cpu_offset(void)
{
	char *tp = __builtin_thread_pointer();

	if (__rseq_size > 0)
		return __rseq_offset + offsetof(struct rseq, cpu_id);
	return (char *)&no_cpu - tp;
}

int ft_threads_init(void)
{
	ft_cpu_offset = cpu_offset();
	if (pthread_key_create(&exit_key, thread_exit) ||
	    ft_atfork(NULL, NULL, after_fork_child))
		return -1;
	ready = 1;
	return 0;
}
