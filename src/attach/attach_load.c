// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the runtime into a process that was started without it (fntrace
 * attach).  Under ptrace, one thread is made to call dlopen() (the dynamic
 * loader does the rest, and the runtime's start-up patches live, since the
 * other threads keep running), then fntrace_attach_init().  The thread is
 * stopped only for those two calls; another thread only for the moment
 * its signal mask takes to change (attach_traps.c).  A runtime loaded
 * before and detached since is only started again: fntrace_attach_init()
 * alone.
 */
#include "attach.h"
#include "../cli/cli.h"
#include "../control/ctl_client.h"
#include "../arch/arch.h"
#include "../elf/elf.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Where we open the file a maps line names: the kernel writes the path
 * as our root sees it when it can (a chroot), else as the process's own
 * root does (another mount namespace).  The inode tells which. */
static void reachable_path(pid_t pid, const char *file, unsigned long ino, char *path,
			   size_t len)
{
	char root[64];
	struct stat st;

	snprintf(path, len, "%s", file);
	if (stat(path, &st) == 0 && st.st_ino == ino)
		return;
	attach_root(pid, root, sizeof(root));
	snprintf(path, len, "%s%s", root, file);
}

/* Where the module whose path contains name is mapped in pid: its load
 * bias, or 0; path is where we can open its file. */
static uintptr_t mapped_bias(pid_t pid, const char *name, char *path, size_t len,
			     const struct elf_file *f)
{
	char maps[64], line[4300];
	uintptr_t start, off;
	unsigned long ino;
	FILE *m;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	m = fopen(maps, "re");
	while (m && fgets(line, sizeof(line), m)) {
		char *file = strchr(line, '/');

		if (!file || sscanf(line, "%lx-%*x %*s %lx %*s %lu", &start, &off, &ino) != 3 ||
		    off != 0)
			continue;
		file[strcspn(file, "\n")] = '\0';
		if (strstr(file, name)) {
			reachable_path(pid, file, ino, path, len);
			fclose(m);
			return f ? start - elf_load_base(f) : start;
		}
	}
	if (m)
		fclose(m);
	return 0;
}

/* The address of symbol in the module of pid whose path contains name. */
static uintptr_t remote_symbol(pid_t pid, const char *name, const char *symbol)
{
	char path[4096];
	struct elf_file f;
	uintptr_t addr = 0;
	int dynsym;

	if (!mapped_bias(pid, name, path, sizeof(path), NULL) || elf_open_path(&f, path))
		return 0;
	dynsym = elf_find_section_type(&f, SHT_DYNSYM);
	for (unsigned i = 0; dynsym > 0 && i < elf_sym_count(&f, dynsym) && !addr; i++) {
		struct elf_sym s;

		if (!elf_sym_get(&f, dynsym, i, &s) && s.shndx != SHN_UNDEF &&
		    s.type == STT_FUNC && !strcmp(s.name, symbol))
			addr = mapped_bias(pid, name, path, sizeof(path), &f) + s.value;
	}
	elf_close(&f);
	return addr;
}

/* Put the runtime's path on the thread's stack, below its red zone. */
static uintptr_t push_string(pid_t pid, uintptr_t sp, const char *s)
{
	size_t len = strlen(s) + 1;
	uintptr_t at = (sp - 4096 - len) & ~(uintptr_t)15;
	struct iovec local = { (void *)s, len }, remote = { (void *)at, len };

	return process_vm_writev(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? at : 0;
}

static volatile sig_atomic_t timed_out;

int attach_timed_out(void)
{
	return timed_out;
}

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/* SIGALRM after seconds interrupts the wait for an injected call (no
 * SA_RESTART), and the call is abandoned. */
static void time_limit(unsigned seconds)
{
	struct sigaction sa = { .sa_handler = on_alarm };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

/*
 * The time limit is up while the thread runs our call.  Abandoned where
 * it waits for the loader's lock (another thread holds it), the call
 * leaves nothing behind; but once the runtime is mapped, dlopen() holds
 * that lock (and the runtime's start its own): abandoned there, they
 * would stay taken, and the program's next dlopen() would wait for
 * ever.  Then the wait goes on, said once.
 */
int inject_may_abandon(pid_t tid)
{
	char path[4096];
	static int said;

	if (!mapped_bias(tid, "/libfntrace.so", path, sizeof(path), NULL))
		return 1;
	if (!said++)
		fprintf(stderr, "fntrace: process %d: the runtime is starting in it; waiting for "
			"it to finish (stopped now, it would leave the loader's lock taken)\n",
			(int)tid);
	return 0;
}

/* The runtime's start in the process, called by its thread tid, given
 * the threads SIGTRAP was let through to; sp: where a string may go
 * below. */
static int inject_init(pid_t pid, pid_t tid, uintptr_t sp, const char *traps)
{
	uintptr_t init = remote_symbol(pid, "/libfntrace.so", "fntrace_attach_init"), ret = 0;
	uintptr_t str = sp ? push_string(pid, sp, traps) : 0;

	if (!init || !str || arch_inject_call(tid, init, &str, 1, str - 256, &ret) || ret) {
		cli_error("process %d: the runtime loaded but its control did not start%s%s",
			  (int)pid, inject_fault() ? ": " : "", inject_fault() ? inject_fault() : "");
		return -1;
	}
	return 0;
}

/* dlopen(lib) called by pid's thread tid, the path pushed at sp. */
static int remote_dlopen(pid_t pid, pid_t tid, uintptr_t dlopen_addr, uintptr_t sp,
			 const char *lib)
{
	uintptr_t str = push_string(pid, sp, lib), ret = 0;
	uintptr_t args[2] = { str, RTLD_NOW };

	if (str && arch_inject_call(tid, dlopen_addr, args, 2, str - 256, &ret) == 0 && ret)
		return 0;
	if (timed_out)
		cli_error("process %d: the runtime did not load within the time limit "
			  "(a thread may hold a lock the loader needs); try again later", (int)pid);
	else if (inject_fault())
		cli_error("process %d: dlopen(%s) took a fault in it: %s", (int)pid, lib,
			  inject_fault());
	else
		cli_error("process %d: dlopen(%s) failed in it", (int)pid, lib);
	return -1;
}

/* The libraries staged for the runtime first, then the runtime, loaded
 * by pid's thread tid. */
static int inject(pid_t pid, pid_t tid, const struct attach_staging *s, const char *traps)
{
	uintptr_t dlopen_addr = remote_symbol(pid, "/libc.so", "dlopen");
	uintptr_t sp = arch_inject_stack(tid);

	if (!dlopen_addr || !sp) {
		cli_error("process %d: cannot find dlopen in its C library", (int)pid);
		return -1;
	}
	for (unsigned i = 0; i < s->nr_deps; i++)
		if (remote_dlopen(pid, tid, dlopen_addr, sp, s->deps[i]))
			return -1;
	if (remote_dlopen(pid, tid, dlopen_addr, sp, s->runtime))
		return -1;
	/* dlopen() has copied the path: the list takes its place. */
	return inject_init(pid, tid, sp, traps);
}

/*
 * Stop a thread under ptrace (PTRACE_SEIZE, PTRACE_INTERRUPT).  It may
 * stop taking a signal instead (its own, or the trap of one of our
 * breakpoints): that signal must go on with it when it is let go, or the
 * thread would run on past a trap no handler saw.  Returns that signal,
 * 0 if none, or -1 (not stopped, and let go).
 */
int attach_ptrace_stop(pid_t tid)
{
	int status;

	if (ptrace(PTRACE_SEIZE, tid, NULL, NULL) || ptrace(PTRACE_INTERRUPT, tid, NULL, NULL))
		return -1;
	if (waitpid(tid, &status, __WALL) == tid && WIFSTOPPED(status))
		return (status >> 16) == 0 ? WSTOPSIG(status) : 0;
	ptrace(PTRACE_DETACH, tid, NULL, NULL);
	return -1;
}

/*
 * The loading thread runs the loader and the runtime's start, which
 * patches every site: a second of CPU where there are many.  Among a
 * thousand threads of the program's that keep two CPUs busy, at their
 * nice, that second took 20 s of waiting for turns.  So the thread is
 * lent nice -20 for the load (where we may: CAP_SYS_NICE), as the
 * control thread takes it (src/core/control_self.c), and its own nice is
 * given back after.  Returns that nice, or NO_NICE if none was lent.
 */
#define NO_NICE (-100)

static int lend_priority(pid_t tid)
{
	int nice;

	errno = 0;
	nice = getpriority(PRIO_PROCESS, tid);
	if (errno || nice == -20 || setpriority(PRIO_PROCESS, tid, -20))
		return NO_NICE;
	return nice;
}

static void give_back_priority(pid_t tid, int nice)
{
	if (nice != NO_NICE)
		setpriority(PRIO_PROCESS, tid, nice);
}

/* The runtime into pid by its thread tid, its control started; lib is
 * copied where the process can open it for the moment of the load. */
static int load(pid_t pid, pid_t tid, const char *lib, int loaded, const char *traps)
{
	static struct attach_staging staging;
	int ret, nice = lend_priority(tid);

	if (loaded)
		ret = inject_init(pid, tid, arch_inject_stack(tid), traps);
	else
		ret = attach_stage_runtime(pid, lib, &staging) ||
		      inject(pid, tid, &staging, traps);
	if (!loaded)
		attach_unstage_runtime(pid);
	give_back_priority(tid, nice);
	return ret;
}

int attach_load(pid_t pid, const char *lib, unsigned timeout)
{
	char path[4096], traps[2048];
	int ret, loaded, sig;
	pid_t tid;

	/* Loaded before and detached since: only started again. */
	loaded = mapped_bias(pid, "/libfntrace.so", path, sizeof(path), NULL) != 0;
	if (loaded && ctl_endpoint_exists(pid)) {
		cli_error("process %d has the runtime already: use 'fntrace ctl'", (int)pid);
		return -1;
	}
	time_limit(timeout);
	if ((tid = attach_seize_safe(pid, &sig)) < 0) {
		alarm(0);
		return -1;
	}
	if (attach_unblock_traps(pid, tid, traps, sizeof(traps)))
		traps[0] = '\0';
	ret = load(pid, tid, lib, loaded, traps);
	alarm(0);
	ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)sig);
	if (ret)
		detach_reblock_traps(pid, traps);
	return ret ? -1 : 0;
}
