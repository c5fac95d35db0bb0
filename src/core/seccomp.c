// SPDX-License-Identifier: GPL-2.0
/*
 * A seccomp filter belongs to a thread (and the threads it makes after),
 * may kill the process on any system call, and cannot be read from
 * inside.  So the runtime keeps to what it can know:
 *
 *   - the hooks make the calls every program makes (futex, mmap, gettid,
 *     prctl(PR_GET_NAME)): assumed allowed, as glibc itself makes them;
 *   - process_vm_readv, which reads a string argument, is unusual: once
 *     a filter is seen on any thread, strings are recorded as pointers;
 *   - patching (mprotect, madvise, membarrier, tgkill) is done only by a
 *     thread under no filter: the control thread, made before the
 *     program installed its filter, still switches tracers; a filtered
 *     thread's dlopen leaves its module unpatched;
 *   - the control endpoint is not opened by a filtered thread;
 *   - strict mode allows nothing but read, write and exit: tracing is
 *     switched off before the program enters it, and stays off.
 *
 * A filter is seen when prctl(PR_SET_SECCOMP) or seccomp(2) through
 * syscall() installs it (both wrapped), at start-up (every thread's
 * Seccomp: field), at each control request (a slice of the threads', on
 * from the last) and by a thread about to patch (its own).  One made
 * with the instruction itself (a sandbox's own code) is seen only by
 * those looks: until then strings are still read.
 */
#include "lock.h"
#include "messages.h"
#include "seccomp.h"
#include "ftrace.h"
#include "procstatus.h"
#include "raw_syscall.h"

#include <dirent.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int ft_seccomp_seen;

static int strict_seen;
/* Bumped whenever a filter is seen: a thread found under none need not
 * read its status again until then (start-up patches a batch per module). */
static _Atomic unsigned generation = 1;
static __thread unsigned clear_at;

/* The Seccomp: field of a status file: 0 none, 1 strict, 2 filter. */
static int mode_in(const char *path)
{
	long mode = ft_status_field(path, "Seccomp");

	return mode > 0 ? (int)mode : 0;
}

static void note_filter(void)
{
	atomic_fetch_add(&generation, 1);
	if (ft_seccomp_seen)
		return;
	__atomic_store_n(&ft_seccomp_seen, 1, __ATOMIC_RELAXED);
	ft_warn("a seccomp filter is in place: string arguments are recorded as "
		"pointers, not read (process_vm_readv may be forbidden)");
}

/* The threads from the one after tid `after`, in the order /proc lists
 * them (by tid), `most` of them at most (0: all): the tid looked at
 * last, or 0 once every thread was. */
static int scan_from(int after, int most)
{
	DIR *d = ft_seccomp_seen ? NULL : opendir("/proc/self/task");
	struct dirent *e;
	char path[64];
	int tid, last = 0, seen = 0;

	while (!last && d && (e = readdir(d))) {
		tid = atoi(e->d_name);	/* "." and ".." are 0 */
		if (tid <= after)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
		if (mode_in(path))
			note_filter();
		if (++seen == most)
			last = tid;
	}
	if (d)
		closedir(d);
	return last;
}

void ft_seccomp_scan(void)
{
	scan_from(0, 0);
}

/*
 * A control request reads a slice of the threads' status files, on from
 * the thread the last one stopped after.  A file takes some 30 us to
 * make; a thousand of them at each request, on a machine the program's
 * threads keep busy, left the control thread so far behind them in the
 * scheduler's account that its answers took seconds, past its client's
 * patience.
 */
#define SCAN_SLICE 32

static void scan_slice(void)
{
	static int stopped_after;

	stopped_after = scan_from(stopped_after, SCAN_SLICE);
}

/* This thread's mode; a filter found is noted.  No malloc (procstatus.c):
 * the control thread asks before it knows whether it may. */
static int own_mode(void)
{
	unsigned now = atomic_load(&generation);
	int mode;

	if (clear_at == now)
		return 0;
	mode = mode_in("/proc/thread-self/status");
	if (mode)
		note_filter();
	else
		clear_at = now;
	return mode;
}

int ft_seccomp_covers_this_thread(void)
{
	return strict_seen || own_mode();
}

int ft_seccomp_may_patch(void)
{
	static int said;

	if (!ft_seccomp_covers_this_thread())
		return 1;
	if (!said++)
		ft_warn("a seccomp filter covers this thread and may forbid mprotect "
			"or membarrier: its text is not patched (tracing stays as it is)");
	return 0;
}

int ft_seccomp_may_serve(const char *otherwise)
{
	static int said;

	if (!own_mode()) {
		scan_slice();
		return 1;
	}
	if (!said++)
		ft_warn("a seccomp filter covers the control thread and may forbid "
			"what it does (sockets, malloc's mprotect, patching): %s",
			otherwise);
	return 0;
}

/* Strict mode kills on the hooks' first futex or mmap: tracing off
 * first, while this thread may still patch, and never on again. */
static void before_strict(void)
{
	ftrace_lock();
	ftrace_kill("seccomp strict mode allows the runtime no system call");
	strict_seen = 1;
	ftrace_unlock();
}

/* seccomp(2) made with syscall() (glibc has no wrapper; libseccomp's
 * seccomp_load() makes it so): seen as prctl's are. */
int ft_raw_seccomp(long nr, const long *a, long *ret)
{
	if (nr != SYS_seccomp)
		return 0;
	if (a[0] == SECCOMP_SET_MODE_STRICT)
		before_strict();
	*ret = ft_syscall_pass(nr, a);
	if (a[0] == SECCOMP_SET_MODE_FILTER && *ret == 0)
		note_filter();
	return 1;
}

/* The system call itself, as glibc's prctl() makes it: the runtime's own
 * calls come here too (a hook names its thread's chunk), where a first
 * dlsym() for the real one could take the loader's lock. */
FT_EXPORT int prctl(int option, ...)
{
	unsigned long arg[4];
	va_list ap;
	int ret;

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		arg[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_SECCOMP && arg[0] == SECCOMP_MODE_STRICT)
		before_strict();
	ret = (int)syscall(SYS_prctl, option, arg[0], arg[1], arg[2], arg[3]);
	if (option == PR_SET_SECCOMP && arg[0] == SECCOMP_MODE_FILTER && ret == 0)
		note_filter();
	return ret;
}
