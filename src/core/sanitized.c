// SPDX-License-Identifier: GPL-2.0
/*
 * What the runtime does differently in a process a sanitizer watches
 * (docs/design.md, *Sanitizers*).
 *
 * LeakSanitizer judges at exit which blocks are still reachable, reading
 * every thread's stack for words that look like pointers.  The hooks save
 * registers on the stack below the traced function's frame, dead ones too
 * (at a return, the argument registers still hold what the function last
 * passed on): such a copy, which the program's own code would have
 * overwritten with a return address, kept a block the program had lost
 * reachable, and the leak went unreported.  So where LSan runs, the
 * x86_64 hooks zero what they saved on the way out.
 *
 * ThreadSanitizer runs a thread of its own that blocks every signal: not
 * one of the program's (src/core/tasks.c).  It sees every libc call the
 * runtime makes: the runtime's mutexes would order the program's threads
 * (a race hidden), and the control thread's reads and writes would meet
 * the program's.  A process fntrace starts has TSan told to look past the
 * runtime (src/target/tsan_env.c); one fntrace attaches to read its
 * options long before.  TSan's own annotations say the same from inside:
 * sync is ignored around each lock and unlock of the runtime's mutexes,
 * and everything the control thread does is ignored for its whole life.
 *
 * TSan keeps a shadow stack of its own, for its reports: each function
 * passes its return address to __tsan_func_entry, read from its slot
 * after the graph's hook has taken it:
 *
 *   bump:  call  mcount                 slot: return_to_handler
 *          mov   8(%rbp), %rdi          %rdi: return_to_handler
 *          call  __tsan_func_entry@plt
 *
 * and every frame of a report was return_to_handler's.  The program's
 * calls to it reach tsan_entry() instead (interpose.c points their GOT
 * slots at it), which hands TSan the real return address.
 */
#include "ftrace.h"
#include "interpose.h"
#include "messages.h"
#include "sanitized.h"
#include "tracers.h"

#include <dlfcn.h>
#include <stddef.h>

int ft_scrub_spills;
int ft_sanitized_tsan;

typedef void (*tsan_annotation)(const char *file, int line);

/* TSan's begin and end of each kind of ignore, looked up once. */
static struct {
	tsan_annotation sync[2], reads[2], writes[2];
} ignore;

static tsan_annotation annotation(const char *name)
{
	return (tsan_annotation)dlsym(RTLD_DEFAULT, name);
}

static void find_annotations(void)
{
	ignore.sync[0] = annotation("AnnotateIgnoreSyncBegin");
	ignore.sync[1] = annotation("AnnotateIgnoreSyncEnd");
	ignore.reads[0] = annotation("AnnotateIgnoreReadsBegin");
	ignore.reads[1] = annotation("AnnotateIgnoreReadsEnd");
	ignore.writes[0] = annotation("AnnotateIgnoreWritesBegin");
	ignore.writes[1] = annotation("AnnotateIgnoreWritesEnd");
	for (int i = 0; i < 2; i++)
		if (!ignore.sync[i] || !ignore.reads[i] || !ignore.writes[i])
			ignore = (__typeof__(ignore)){ 0 };
}

void ft_sanitized_start(void)
{
	ft_scrub_spills = dlsym(RTLD_DEFAULT, "__lsan_do_leak_check") != NULL;
	ft_sanitized_tsan = dlsym(RTLD_DEFAULT, "__tsan_init") != NULL;
	if (ft_sanitized_tsan)
		find_annotations();
}

typedef void (*tsan_entry_fn)(void *pc);
static tsan_entry_fn tsan_func_entry;

static void tsan_entry(void *pc)
{
	tsan_func_entry((void *)graph_newest_return((uintptr_t)pc));
}

/* Where TSan's runtime is a library of its own (gcc's): the program calls
 * its entry hook through GOT slots, which can be pointed at ours.  (Clang
 * links it into the program, and calls it directly.)  Under ftrace_lock. */
void ft_sanitized_hooks(void)
{
	if (!ft_sanitized_tsan)
		return;
	tsan_func_entry = (tsan_entry_fn)dlsym(RTLD_DEFAULT, "__tsan_func_entry");
	if (tsan_func_entry && ft_interpose_tsan_entry(tsan_entry))
		ft_warn("cannot reach ThreadSanitizer's entry hook: its reports may name "
			"return_to_handler");
}

/* Begin (0) or end (1) one kind of ignore, where TSan runs. */
static void annotate(tsan_annotation pair[2], int end)
{
	if (pair[end])
		pair[end](__FILE__, __LINE__);
}

void ft_mutex_lock(pthread_mutex_t *m)
{
	annotate(ignore.sync, 0);
	pthread_mutex_lock(m);
	annotate(ignore.sync, 1);
}

void ft_mutex_unlock(pthread_mutex_t *m)
{
	annotate(ignore.sync, 0);
	pthread_mutex_unlock(m);
	annotate(ignore.sync, 1);
}

void ft_sanitized_thread_ignored(void)
{
	annotate(ignore.reads, 0);
	annotate(ignore.writes, 0);
	annotate(ignore.sync, 0);
}
