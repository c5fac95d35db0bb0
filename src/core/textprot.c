// SPDX-License-Identifier: GPL-2.0
/*
 * The program's own protections of its text.  A batch must read a site's
 * old bytes and write its new ones; the page's protection is the
 * program's: r-x as the loader left it, rwx from a hot-patcher that
 * writes its own code, --x (execute-only) where the program asked for it.
 * So before a batch each page's protection is read from /proc/self/maps,
 * read and write are added for the batch, and afterwards each page gets
 * back exactly what it had: a page the program made rwx stays writable
 * throughout (it needs no change at all), an execute-only page is
 * readable only while the batch verifies it.
 *
 * Another thread of the program may call mprotect() on the same pages
 * meanwhile: its protection would be read before it changed and the
 * batch would put back the old one, or take write away under the batch.
 * So mprotect() is wrapped, and a call made while a window is open waits
 * until it closes (a batch lasts milliseconds); the window waits for the
 * calls already inside to return before it reads the protections.  A
 * signal handler of the patching thread could not wait for its own
 * thread: that thread takes no asynchronous signal while the window is
 * open.  What the wrapper does not see (a raw system call, the loader's
 * own mprotect of a module it is loading) is not ordered with a batch.
 * The wait has a price: a batch allocates, so a program whose allocator
 * calls mprotect() through the PLT while holding its own lock could wait
 * for a batch that waits for that lock (glibc's malloc calls mprotect
 * inside libc, never through the wrapper).
 */
#include "messages.h"
#include "sanitized.h"
#include "textprot.h"
#include "fds.h"
#include "ftrace.h"
#include "sync.h"
#include "../common/array.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A piece of a batch's text, and the protection the program gave it. */
struct span {
	uintptr_t lo, hi;
	int prot;
};

static pthread_mutex_t window_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic pid_t window_owner;	/* the patching thread, 0 if none */
static _Atomic unsigned calls_inside;	/* mprotect() wrappers let through */

static struct span *spans;
static size_t nr_spans, cap_spans;
static struct span mapping;		/* the maps line read last */

/* /proc/self/maps, read through a buffer of our own: no stdio, no
 * malloc for its lines (a line is at most a path and 100 bytes more). */
static int maps_fd = -1;		/* the FT_FD_MAPS slot's, while a batch reads */
static pid_t maps_pid;			/* whose maps that descriptor reads */
static int no_maps;			/* none to read: text is given r-x back */
static int said_no_maps;
static char maps_buf[8192];
static size_t maps_len, maps_pos;
static int dropping;			/* the rest of a line too long */
static sigset_t saved_mask;

static pid_t own_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Not through our wrapper (below), which waits for an open window. */
static int set_protection(uintptr_t lo, uintptr_t hi, int prot)
{
	return (int)syscall(SYS_mprotect, lo, hi - lo, prot);
}

/* Every asynchronous signal held back; a fault or our trap still comes. */
static void hold_signals(void)
{
	static const int kept[] = { SIGTRAP, SIGSEGV, SIGBUS, SIGILL, SIGFPE };
	sigset_t held;

	sigfillset(&held);
	for (unsigned i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		sigdelset(&held, kept[i]);
	ftrace_thread_mask(SIG_BLOCK, &held, &saved_mask);
}

/* The next whole line of maps, NUL-terminated; NULL at the end.  A line
 * longer than the buffer (no path is) is dropped, to its end. */
static char *next_line(void)
{
	char *line, *end;
	ssize_t n;

	for (;;) {
		line = maps_buf + maps_pos;
		end = memchr(line, '\n', maps_len - maps_pos);
		if (end) {
			*end = '\0';
			maps_pos = end + 1 - maps_buf;
			if (!dropping)
				return line;
			dropping = 0;
			continue;
		}
		memmove(maps_buf, line, maps_len - maps_pos);
		maps_len -= maps_pos;
		maps_pos = 0;
		if (maps_len == sizeof(maps_buf)) {
			maps_len = 0;
			dropping = 1;
		}
		n = read(maps_fd, maps_buf + maps_len, sizeof(maps_buf) - maps_len);
		if (n <= 0)
			return NULL;
		maps_len += n;
	}
}

/*
 * Under qemu-user, maps is the emulator's account of the guest's pages,
 * and for an i386 guest it leaves out x on text that runs: taken at its
 * word, a batch put back r-- and the next call faulted.  A page with
 * call sites is code that runs, so there it keeps exec.
 */
static int exec_unseen(void)
{
	return ftrace_cpu_emulated() ? PROT_EXEC : 0;
}

/* The next line of maps: its range and protection; 0 at the end. */
static int next_mapping(void)
{
	unsigned long lo, hi;
	char perms[8], *line;

	while ((line = next_line()))
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3) {
			mapping.lo = lo;
			mapping.hi = hi;
			mapping.prot = (perms[0] == 'r' ? PROT_READ : 0) |
				       (perms[1] == 'w' ? PROT_WRITE : 0) |
				       (perms[2] == 'x' ? PROT_EXEC : exec_unseen());
			return 1;
		}
	return 0;
}

static int open_maps(void *unused)
{
	return open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
}

/*
 * /proc/self/maps, opened once per process and read again from its start
 * for each batch: a program at its descriptor limit, or in a chroot with
 * no /proc, can still be patched (natively).  A forked child's copy
 * reads its parent's maps ("self" is resolved at open): it opens its own.
 */
static int maps_descriptor(void)
{
	int fd = ft_fd_checked(FT_FD_MAPS);

	/* qemu-user writes its account of the guest's maps into a file at
	 * open: read again, one opened before shows none of the modules
	 * loaded since. */
	if (fd >= 0 && maps_pid == getpid() && !ftrace_cpu_emulated())
		return lseek(fd, 0, SEEK_SET) == 0 ? fd : -1;
	if (fd >= 0)
		ft_fd_release(FT_FD_MAPS);
	maps_pid = getpid();
	return ft_fd_open(FT_FD_MAPS, open_maps, NULL, NULL);
}

void text_window_prepare(void)
{
	maps_descriptor();
}

int text_window_open(void)
{
	ft_mutex_lock(&window_lock);
	atomic_store(&window_owner, own_tid());
	while (atomic_load(&calls_inside))
		sched_yield();
	hold_signals();
	nr_spans = 0;
	mapping.lo = mapping.hi = 0;
	maps_len = maps_pos = 0;
	dropping = 0;
	maps_fd = maps_descriptor();
	no_maps = maps_fd < 0;
	if (no_maps && !said_no_maps++)
		ft_warn("cannot read /proc/self/maps: patched text gets r-x back, "
			"whatever protection the program gave it");
	return 0;
}

static int keep_span(uintptr_t lo, uintptr_t hi, int prot)
{
	if (grow_array((void **)&spans, &cap_spans, nr_spans + 1, sizeof(*spans)))
		return -1;
	spans[nr_spans++] = (struct span){ lo, hi, prot };
	return 0;
}

/* One piece of a mapping: kept, and made readable and writable. */
static int open_piece(uintptr_t lo, uintptr_t hi, int prot)
{
	int want = prot | PROT_READ | PROT_WRITE;

	if (want == prot)
		return 0;
	if (keep_span(lo, hi, prot) || set_protection(lo, hi, want)) {
		ft_warn("cannot change the protection of text at %#lx", (unsigned long)lo);
		return -1;
	}
	return 0;
}

static int add_range(uintptr_t lo, uintptr_t hi, int data)
{
	uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE), at;

	lo &= ~(ps - 1);
	hi = (hi + ps - 1) & ~(ps - 1);
	if (no_maps && data) {
		ft_warn("cannot read /proc/self/maps: a GOT's protection cannot be known, "
			"not changing it");
		return -1;
	}
	if (no_maps)
		return open_piece(lo, hi, PROT_READ | PROT_EXEC);
	for (at = lo; at < hi;) {
		if (mapping.hi <= at && !next_mapping())
			break;
		if (mapping.hi <= at)
			continue;
		if (mapping.lo > at)
			break;
		uintptr_t end = mapping.hi < hi ? mapping.hi : hi;

		if (open_piece(at, end, mapping.prot))
			return -1;
		at = end;
	}
	if (at >= hi)
		return 0;
	ft_warn("text at %#lx is not mapped: not patching", (unsigned long)at);
	return -1;
}

int text_window_add(uintptr_t lo, uintptr_t hi)
{
	return add_range(lo, hi, 0);
}

/* A GOT's page may be rw- (lazy binding writes it) or r-- (RELRO): with
 * no maps to read it from, it is left alone, where text is taken for r-x. */
int text_window_add_data(uintptr_t lo, uintptr_t hi)
{
	return add_range(lo, hi, 1);
}

void text_window_close(void)
{
	for (size_t i = 0; i < nr_spans; i++)
		if (set_protection(spans[i].lo, spans[i].hi, spans[i].prot))
			ft_warn("cannot give text at %#lx its protection back",
				(unsigned long)spans[i].lo);
	nr_spans = 0;
	maps_fd = -1;	/* the slot's: kept for the next batch */
	ftrace_thread_mask(SIG_SETMASK, &saved_mask, NULL);
	atomic_store(&window_owner, 0);
	ft_mutex_unlock(&window_lock);
}

/*
 * The program's mprotect: straight through while no batch is open (one
 * load more), else after the batch.  The count comes first, so that a
 * window that opens meanwhile either is seen here or waits for this call.
 * The runtime's own calls come here too, some while an update holds the
 * loader's lock, where a first dlsym() for the real one could wait for
 * it: the system call is made directly.
 */
FT_EXPORT int mprotect(void *addr, size_t len, int prot)
{
	pid_t owner;
	int ret;

	atomic_fetch_add(&calls_inside, 1);
	owner = atomic_load(&window_owner);
	if (!owner || owner == own_tid()) {
		ret = set_protection((uintptr_t)addr, (uintptr_t)addr + len, prot);
		atomic_fetch_sub(&calls_inside, 1);
		return ret;
	}
	atomic_fetch_sub(&calls_inside, 1);
	ft_mutex_lock(&window_lock);
	ret = set_protection((uintptr_t)addr, (uintptr_t)addr + len, prot);
	ft_mutex_unlock(&window_lock);
	return ret;
}
