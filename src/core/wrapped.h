/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every libc, libgcc and libstdc++ function the runtime wraps: the one
 * list that fntrace attach (interpose.c), the linked-in runtime
 * (link_static.c, link_wrappers.S) and `fntrace cc -static` (the
 * linker's --wrap options) read.  No include guard: the includer defines
 * the macros it wants, then includes this.
 *
 *   FT_WRAP(name)          every program has it
 *   FT_WRAP_WEAK(name)     only C++ programs have it
 *   FT_WRAP_TIME64(name)   the 64-bit time form of a 32-bit ABI's
 *                          function, in the same object of libc.a
 *   FT_WRAP_PRELOADED(name) wrapped when preloaded only: in a static
 *                          program even a reference to dlopen makes the
 *                          linker warn, and glibc's static dlopen is
 *                          left to itself (docs/design.md)
 */
#ifndef FT_WRAP_WEAK
#define FT_WRAP_WEAK(name) FT_WRAP(name)
#endif
#ifndef FT_WRAP_TIME64
#define FT_WRAP_TIME64(name) FT_WRAP(name)
#endif
#ifndef FT_WRAP_PRELOADED
#define FT_WRAP_PRELOADED(name) FT_WRAP(name)
#endif

/* unwind.c: jumps, exceptions and stack switches */
FT_WRAP(longjmp)
FT_WRAP(_longjmp)
FT_WRAP(siglongjmp)
FT_WRAP(__longjmp_chk)
FT_WRAP(_Unwind_RaiseException)
FT_WRAP(_Unwind_Resume_or_Rethrow)
FT_WRAP_WEAK(__cxa_begin_catch)
FT_WRAP(_Unwind_Find_FDE)
FT_WRAP(_Unwind_Backtrace)
FT_WRAP(backtrace)
FT_WRAP(pthread_exit)
FT_WRAP(swapcontext)
FT_WRAP(setcontext)
FT_WRAP(execve)
FT_WRAP(execvpe)
FT_WRAP(execv)
FT_WRAP(execvp)
FT_WRAP(execl)
FT_WRAP(execlp)
FT_WRAP(execle)
FT_WRAP(posix_spawn)
FT_WRAP(posix_spawnp)
/* breakpoint.c, sigmask.c: the signals the runtime needs */
FT_WRAP(sigaction)
FT_WRAP(signal)
FT_WRAP(sigprocmask)
FT_WRAP(pthread_sigmask)
FT_WRAP(pthread_attr_setsigmask_np)
FT_WRAP(sigsuspend)
FT_WRAP(signalfd)
FT_WRAP(sigwait)
FT_WRAP(sigwaitinfo)
FT_WRAP(sigtimedwait)
FT_WRAP_TIME64(__sigtimedwait64)
FT_WRAP(ppoll)
FT_WRAP_TIME64(__ppoll64)
FT_WRAP(__ppoll_chk)
FT_WRAP(pselect)
FT_WRAP_TIME64(__pselect64)
FT_WRAP(epoll_pwait)
FT_WRAP(epoll_pwait2)
FT_WRAP_TIME64(__epoll_pwait2_time64)
/* runtime.c: modules that come and go */
FT_WRAP_PRELOADED(dlopen)
FT_WRAP_PRELOADED(dlclose)
/* fds.c: the runtime's descriptors */
FT_WRAP(close)
FT_WRAP(close_range)
FT_WRAP(closefrom)
FT_WRAP(dup2)
FT_WRAP(dup3)
/* textprot.c, seccomp.c, limits.c */
FT_WRAP(mprotect)
FT_WRAP(prctl)
FT_WRAP(setrlimit)
FT_WRAP(setrlimit64)
FT_WRAP(prlimit)
FT_WRAP(prlimit64)
/* clone.c, vfork.S, raw_clone.c: threads and processes made without
 * pthread or fork */
FT_WRAP(clone)
FT_WRAP(vfork)
FT_WRAP(syscall)

#undef FT_WRAP
#undef FT_WRAP_WEAK
#undef FT_WRAP_TIME64
#undef FT_WRAP_PRELOADED
