// SPDX-License-Identifier: GPL-2.0
/*
 * Where the program unwinds its own stack, the shadow stack must follow.
 * Wrapped here (libfntrace.so comes first in the lookup order when it is
 * preloaded, so the program's calls reach these):
 *
 *   longjmp, siglongjmp       frames below the jump's target are gone:
 *                             closed as unwound before the jump
 *   _Unwind_RaiseException    the C++ unwinder reads return addresses: it
 *   _Unwind_Resume_or_Rethrow gets the real ones (return_to_handler has no
 *                             unwind information) ...
 *   __cxa_begin_catch         ... and once an exception is caught, frames
 *                             below the handler are closed as unwound and
 *                             the live ones are taken again
 *   backtrace                 real return addresses while it reads them
 *   _Unwind_Backtrace         the same: libgcc's walk, which the
 *                             sanitizers' slow unwinder is (ASan's report
 *                             of an error, UBSan's print_stacktrace)
 *   pthread_exit              every frame of the thread is closed
 *   swapcontext, setcontext   the thread changes stacks: graph tracing is
 *                             suspended for it, with a marker (and the
 *                             mask it sets keeps the runtime's signals
 *                             free, sigmask.c)
 *   execve and its family     no frame returns in the new program: all
 *                             closed (and given their real return
 *                             addresses back, in case the exec fails)
 *
 * The real functions are found with ft_real().
 */
#include "buffer.h"
#include "exec_env.h"
#include "interpose.h"
#include "own_work.h"
#include "sigmask.h"
#include "sync.h"
#include "events.h"
#include "tracers.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <ucontext.h>
#include <unistd.h>

/* The thread's state, if it has graph frames to look after. */
static struct ft_thread *graph_thread(void)
{
	struct ft_thread *t = ft_current;

	return t && (t->own.depth || t->signal.depth) ? t : NULL;
}

/* Does a jump to sp abandon c's hook?  Yes if a signal interrupted it
 * and the handler jumps out (siglongjmp): its guard must not stay up. */
static int abandons(const struct ft_context *c, uintptr_t sp)
{
	return c->busy && c->busy_sp < sp;
}

/* The event the hook was writing may be lost, or half there (an entry
 * whose frame was never pushed): a LOST note says so, with the depth the
 * report resumes at, before the frames below the jump are closed. */
static void abandon(struct ft_context *c)
{
	if (!c->busy)
		return;
	ft_buffer_add_lost(c, 1);
	c->busy = 0;
}

/* Abandoning the thread's own hook abandons the signal context and its
 * frames, which can only have run inside it (on a sigaltstack maybe,
 * above sp): they are closed before the note, which must cut from the
 * report's stack no more than what the abandoned hook left half done. */
static void jump_to(uintptr_t sp)
{
	struct ft_thread *t = ft_current;

	if (!t)
		return;
	if (abandons(&t->own, sp)) {
		abandon(&t->signal);
		graph_close_signal(t);
		abandon(&t->own);
	} else if (abandons(&t->signal, sp)) {
		abandon(&t->signal);
	}
	if (t->own.depth || t->signal.depth)
		graph_unwind_below(t, sp);
}

typedef void (*jump_fn)(struct __jmp_buf_tag *, int);

/* The frames below the target go, then the real jump (found once). */
static __attribute__((noreturn)) void jump(jump_fn *real, const char *name,
					    struct __jmp_buf_tag *env, int val)
{
	if (!*real)
		*real = (jump_fn)ft_real(name);
	jump_to(arch_jmpbuf_sp(env));
	(*real)(env, val);
	__builtin_unreachable();
}

FT_EXPORT void longjmp(jmp_buf env, int val)
{
	static jump_fn real;

	jump(&real, "longjmp", env, val);
}

FT_EXPORT void _longjmp(jmp_buf env, int val)
{
	static jump_fn real;

	jump(&real, "_longjmp", env, val);
}

FT_EXPORT void siglongjmp(sigjmp_buf env, int val)
{
	static jump_fn real;

	jump(&real, "siglongjmp", env, val);
}

/* _FORTIFY_SOURCE builds call this one. */
FT_EXPORT void __longjmp_chk(jmp_buf env, int val)
{
	static jump_fn real;

	jump(&real, "__longjmp_chk", env, val);
}

/* ---- C++ exceptions ---- */

typedef int (*raise_fn)(void *exception);

static void unhijack(void)
{
	struct ft_thread *t = graph_thread();

	if (t)
		graph_unhijack(t);
}

FT_EXPORT int _Unwind_RaiseException(void *exception)
{
	REAL(raise_fn, "_Unwind_RaiseException");
	unhijack();
	return real(exception);
}

FT_EXPORT int _Unwind_Resume_or_Rethrow(void *exception)
{
	REAL(raise_fn, "_Unwind_Resume_or_Rethrow");
	unhijack();
	return real(exception);
}

/* In the handler that caught: what is below it is gone, what is above
 * it is alive and is ours again. */
FT_EXPORT void *__cxa_begin_catch(void *exception)
{
	typedef void *(*catch_fn)(void *);
	struct ft_thread *t = graph_thread();

	REAL(catch_fn, "__cxa_begin_catch");
	if (t) {
		graph_unwind_below(t, arch_caller_sp());
		graph_rehijack(t);
	}
	return real(exception);
}

/* ---- the rest ---- */

/*
 * A frame whose return address the runtime could not give back (on
 * aarch64 a patchable entry's: the function saved x30 after the hijack)
 * is walked through the frame description unwind_fde.c makes, which
 * stands at return_to_handler and steps to the real caller: a frame the
 * program does not have, passed over.
 */
static int is_handler_frame(uintptr_t pc)
{
	return pc == (uintptr_t)return_to_handler;
}

/* The program's frames, with their real return addresses, and without
 * this wrapper's own frame, which real backtrace() would list first. */
FT_EXPORT int backtrace(void **buffer, int size)
{
	typedef int (*backtrace_fn)(void **, int);
	struct ft_thread *t = graph_thread();
	void *frames[256];
	int n, kept = 0;

	REAL(backtrace_fn, "backtrace");
	if (size <= 0 || size >= 256)
		return real(buffer, size);
	if (t)
		graph_unhijack(t);
	n = real(frames, size + 1);
	if (t)
		graph_rehijack(t);
	for (int i = 1; i < n; i++)
		if (!is_handler_frame((uintptr_t)frames[i]))
			buffer[kept++] = frames[i];
	return kept;
}

typedef int (*walk_step_fn)(void *context, void *arg);
typedef uintptr_t (*get_ip_fn)(void *context);

static get_ip_fn unwind_get_ip;

struct walk {
	walk_step_fn step;
	void *arg;
};

/* The walker's step, for every frame but a handler's.  0 is
 * _URC_NO_REASON: on to the next frame. */
static int step_past_handler(void *context, void *arg)
{
	struct walk *w = arg;

	if (is_handler_frame(unwind_get_ip(context)))
		return 0;
	return w->step(context, w->arg);
}

/* A sanitizer's report of an error (ASan's unless fast_unwind_on_fatal)
 * walks the stack with libgcc's unwinder: the frames it names are the
 * program's, not return_to_handler, where no return sites take the
 * returns.  (Allocation stacks are walked by frame pointers, at malloc:
 * ASAN_OPTIONS=fast_unwind_on_malloc=0 has them walked here too.)  A
 * thread with no graph frames has no handler frame to pass over. */
FT_EXPORT int _Unwind_Backtrace(walk_step_fn step, void *arg)
{
	typedef int (*walk_fn)(walk_step_fn, void *);
	struct ft_thread *t = graph_thread();
	struct walk w = { step, arg };
	int ret;

	REAL(walk_fn, "_Unwind_Backtrace");
	if (!t)
		return real(step, arg);
	if (!unwind_get_ip)
		unwind_get_ip = (get_ip_fn)ft_real("_Unwind_GetIP");
	graph_unhijack(t);
	ret = unwind_get_ip ? real(step_past_handler, &w) : real(step, arg);
	graph_rehijack(t);
	return ret;
}

FT_EXPORT void pthread_exit(void *value)
{
	typedef void (*exit_fn)(void *);
	struct ft_thread *t = graph_thread();

	REAL(exit_fn, "pthread_exit");
	/* Its cleanup unwinds every frame (through libgcc, which reads their
	 * return addresses): none of them returns. */
	if (t)
		graph_close_all(t);
	real(value);
	__builtin_unreachable();
}

static void switching_stacks(void)
{
	struct ft_thread *t = ft_current;

	if (t)
		graph_suspend(t);
}

FT_EXPORT int swapcontext(ucontext_t *old, const ucontext_t *next)
{
	typedef int (*swap_fn)(ucontext_t *, const ucontext_t *);

	ucontext_t copy;

	REAL(swap_fn, "swapcontext");
	next = ft_context_mask_free(next, &copy);
	switching_stacks();
	return real(old, next);
}

FT_EXPORT int setcontext(const ucontext_t *next)
{
	typedef int (*set_fn)(const ucontext_t *);

	ucontext_t copy;

	REAL(set_fn, "setcontext");
	next = ft_context_mask_free(next, &copy);
	switching_stacks();
	return real(next);
}

/* ---- exec ---- */

/* A vfork() child runs on its parent's memory, shadow stack included:
 * what it would close is its parent's.  The sync signal is held across the
 * exec (sync.h). */
static void before_exec(sigset_t *held)
{
	struct ft_thread *t = graph_thread();

	if (t && t->pid == (uint32_t)getpid())
		graph_close_all(t);
	ftrace_sync_hold(held);
}

/* The exec failed: this image goes on. */
static int after_exec(int ret, const sigset_t *held)
{
	ftrace_sync_release(held);
	return ret;
}

typedef int (*exec_fn)(const char *, char *const[], char *const[]);

/* One exec, made once exec_env.c has chosen its environment; the
 * runtime's own work before it (its frames closed, the sync signal held,
 * the image read) from `from`. */
struct exec_call {
	exec_fn real;
	const char *file;
	char *const *argv;
	uint64_t from;
};

static int exec_with(void *arg, char *const envp[])
{
	struct exec_call *c = arg;

	ft_own_share_end(c->from);
	return c->real(c->file, c->argv, envp);
}

/* execve or execvpe (search): this image's frames closed first. */
static int exec_image(exec_fn real, int search, const char *file, char *const argv[],
		      char *const envp[])
{
	struct exec_call c = { real, file, argv, ft_own_work_begin() };
	sigset_t held;

	before_exec(&held);
	return after_exec(ft_exec_with_env(file, search, envp, exec_with, &c), &held);
}

FT_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	REAL(exec_fn, "execve");
	return exec_image(real, 0, path, argv, envp);
}

FT_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	REAL(exec_fn, "execvpe");
	return exec_image(real, 1, file, argv, envp);
}

/* execv and execvp are execve and execvpe with the program's environment,
 * as glibc's own are. */
FT_EXPORT int execv(const char *path, char *const argv[])
{
	REAL(exec_fn, "execve");
	return exec_image(real, 0, path, argv, environ);
}

FT_EXPORT int execvp(const char *file, char *const argv[])
{
	REAL(exec_fn, "execvpe");
	return exec_image(real, 1, file, argv, environ);
}

/* The variadic ones, through their array forms (as glibc's own do). */
#define MAX_EXEC_ARGS 4096

static int collect_args(const char *arg0, va_list ap, char **argv)
{
	int n = 0;

	argv[n++] = (char *)arg0;
	while (arg0 && n < MAX_EXEC_ARGS && (argv[n] = va_arg(ap, char *)))
		n++;
	if (n == MAX_EXEC_ARGS) {
		errno = E2BIG;
		return -1;
	}
	argv[n] = NULL;
	return n;
}

FT_EXPORT int execl(const char *path, const char *arg0, ...)
{
	char *argv[MAX_EXEC_ARGS + 1];
	va_list ap;
	int n;

	va_start(ap, arg0);
	n = collect_args(arg0, ap, argv);
	va_end(ap);
	return n < 0 ? -1 : execv(path, argv);
}

FT_EXPORT int execlp(const char *file, const char *arg0, ...)
{
	char *argv[MAX_EXEC_ARGS + 1];
	va_list ap;
	int n;

	va_start(ap, arg0);
	n = collect_args(arg0, ap, argv);
	va_end(ap);
	return n < 0 ? -1 : execvp(file, argv);
}

FT_EXPORT int execle(const char *path, const char *arg0, ...)
{
	char *argv[MAX_EXEC_ARGS + 1], **envp;
	va_list ap;
	int n;

	va_start(ap, arg0);
	n = collect_args(arg0, ap, argv);
	envp = va_arg(ap, char **);
	va_end(ap);
	return n < 0 ? -1 : execve(path, argv, envp);
}

/*
 * Are these wrappers the ones the program calls?  Preloaded, yes; loaded
 * by fntrace attach, once interpose.c has pointed the program's calls at
 * them.  Otherwise a C++ exception thrown through a graph-hijacked frame
 * would meet return_to_handler in the unwinder and end in std::terminate.
 */
extern int own_raise_exception(void *exception)
	__attribute__((alias("_Unwind_RaiseException"), visibility("hidden")));

int ft_graph_safe_here(void)
{
	/* By name, our wrapper may bind to libgcc's too: the hidden alias
	 * is always ours. */
	return ft_wrapper_reached("_Unwind_RaiseException", (void *)own_raise_exception);
}
