// SPDX-License-Identifier: GPL-2.0
/*
 * Which thread of a process attach may make call dlopen(), and when.
 *
 * Not one stopped inside the dynamic loader.  A process attached the
 * moment it started (`prog & fntrace attach $!`) may be stopped while
 * the loader maps and relocates its libraries: the C library is there
 * but not yet relocated nor started, and the injected dlopen() ran into
 * it and killed the process.  A thread stopped in a dlopen() or a lazy
 * binding of the program's own holds the loader's lock, which is
 * recursive: ours would enter the loader again half-way through.  Such a
 * thread is let go and looked at again a round later, until it is out.
 *
 * Nor, in a ThreadSanitizer program, one stopped inside TSan's runtime:
 * an interceptor (usleep, pthread_join, read ...) or the check of a
 * memory access.  TSan's state there is not the one the program's code
 * runs in: a blocking interceptor has handed its allocator cache to other
 * threads, and dlopen()'s malloc() crashed in TSan's allocator, one
 * attach in 15.
 *
 * So the thread is taken only where the program's own code runs:
 *
 *   - its stack is unwound (libdw, from the CFI); from the innermost frame
 *     outwards, frames in TSan's runtime, the loader, the C library and
 *     fntrace's own runtime are passed until the first frame of other
 *     code, the program's;
 *   - if none was found (the loader is still starting the program), or a
 *     frame of the loader's came before it, the thread is let go, to be
 *     looked at again in the next round;
 *   - if none of them was TSan's, the thread may be taken where it is;
 *   - else it gets a hardware breakpoint, in that thread alone, at that
 *     frame's return address, and runs on: it stops there the moment
 *     TSan's runtime returns to the program.  A blocking interceptor may
 *     hold the thread for the program's whole life: it must be caught on
 *     its way out, not looked at by chance.
 *
 *     main  ->  usleep (TSan's interceptor)  ->  usleep (libc)  ->  syscall
 *       ^ breakpoint at the return address into main
 *
 * Some virtual machines take a debug register's breakpoint and never trap
 * on it (a child of ours, given one, tells: hw_breaks_fire).  There, or
 * with FNTRACE_NO_HW_BREAK set (a test's way to try it anywhere), the
 * thread is single-stepped instead, and its stack looked at after each
 * step, until its innermost frames are the program's and no longer TSan's:
 * a few thousand steps out of an interceptor.
 *
 * TSan's runtime is libtsan.so (gcc), or the functions a clang program
 * carries, known by their names (__tsan_*, __interceptor_*, the
 * __sanitizer namespace ...).  Every thread is looked at: the main thread
 * often waits in pthread_join() for the program's whole life.  The first
 * thread to be ready is taken; the others are let go, their breakpoints
 * cleared.  A thread that never returns to the program's code (TSan's own
 * background thread) is let go at once.
 */
#include "attach.h"
#include "../arch/arch.h"
#include "../cli/cli.h"
#include "../common/array.h"
#include "../elf/elf.h"

#include <dirent.h>
#include <elf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct span {
	uintptr_t lo, hi;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

/* Where TSan's runtime lies (in a TSan program), where the loader does,
 * and the code passed over on the way to the program's: the C library
 * and a runtime attached before (its control thread, parked since a
 * detach, is no thread to take). */
struct code_kinds {
	struct spans tsan, loader, libc;
	int is_tsan;
};

static void add_span(struct spans *s, uintptr_t lo, uintptr_t hi)
{
	if (grow_array((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v)) == 0)
		s->v[s->n++] = (struct span){ lo, hi };
}

static int in_spans(const struct spans *s, uintptr_t pc)
{
	for (size_t i = 0; i < s->n; i++)
		if (pc >= s->v[i].lo && pc < s->v[i].hi)
			return 1;
	return 0;
}

/* The names of the functions of a sanitizer's runtime linked into a
 * program (clang's): its C entry points, its interceptors (whose aliases
 * are the intercepted functions' names, at the same addresses) and its
 * C++ namespaces. */
static int sanitizer_name(const char *name)
{
	static const char *const prefixes[] = {
		"__tsan_", "__interceptor_", "___interceptor_", "__sanitizer",
		"__ubsan_", "__lsan_", "_ZN6__tsan", "_ZN11__sanitizer",
		"_ZN14__interception", "_ZN7__ubsan", "_ZN6__lsan",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static void add_sanitizer_symbols(struct spans *s, const struct elf_file *f, int table,
				  uintptr_t bias)
{
	for (unsigned i = 0; table > 0 && i < elf_sym_count(f, table); i++) {
		struct elf_sym sym;

		if (!elf_sym_get(f, table, i, &sym) && sym.type == STT_FUNC &&
		    sym.shndx != SHN_UNDEF && sym.size && sanitizer_name(sym.name))
			add_span(s, bias + sym.value, bias + sym.value + sym.size);
	}
}

/* The runtime a clang program carries: its functions, where the program
 * is mapped (the mapping of offset 0 of its file gives the bias). */
static void add_program_runtime(struct spans *s, pid_t pid, uintptr_t start)
{
	char exe[64];
	struct elf_file f;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	if (elf_open_path(&f, exe))
		return;
	add_sanitizer_symbols(s, &f, elf_find_section_type(&f, SHT_SYMTAB),
			      start - elf_load_base(&f));
	add_sanitizer_symbols(s, &f, elf_find_section_type(&f, SHT_DYNSYM),
			      start - elf_load_base(&f));
	elf_close(&f);
}

/* The loader's file: ld-linux-x86-64.so.2, ld-linux-aarch64.so.1,
 * ld-linux.so.2, ld.so.1 (mips) ... */
static int is_loader(const char *name)
{
	return !strncmp(name, "ld-", 3) || !strncmp(name, "ld.so", 5);
}

static void classify_mapping(struct code_kinds *k, pid_t pid, const char *line,
			     unsigned long exe_ino, int *exe_seen)
{
	unsigned long lo, hi, off, ino;
	char perms[8];
	const char *file = strchr(line, '/');

	if (!file || sscanf(line, "%lx-%lx %7s %lx %*s %lu", &lo, &hi, perms, &off, &ino) != 5)
		return;
	if (k->is_tsan && ino == exe_ino && off == 0 && !(*exe_seen)++)
		add_program_runtime(&k->tsan, pid, lo);
	if (!strchr(perms, 'x'))
		return;
	if (strstr(file, "/libtsan.so"))
		add_span(&k->tsan, lo, hi);
	else if (is_loader(strrchr(file, '/') + 1))
		add_span(&k->loader, lo, hi);
	else if (strstr(file, "/libc.so") || strstr(file, "/libfntrace.so"))
		add_span(&k->libc, lo, hi);
}

static int read_code_kinds(struct code_kinds *k, pid_t pid)
{
	char path[64], line[4300];
	struct stat exe;
	int exe_seen = 0;
	FILE *m;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if (stat(path, &exe))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(m = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof(line), m))
		classify_mapping(k, pid, line, exe.st_ino, &exe_seen);
	fclose(m);
	return 0;
}

/* What the walk up a thread's stack found. */
struct walk {
	const struct code_kinds *kinds;
	int in_tsan;		/* a frame of TSan's below the program's */
	int in_loader;		/* a frame of the loader's below it */
	uintptr_t program_pc;	/* the innermost frame of the program's, or 0 */
	unsigned frames;
};

static int walk_frame(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;
	bool activation;
	uintptr_t at;

	if (!dwfl_frame_pc(state, &pc, &activation) || ++w->frames > 256)
		return DWARF_CB_ABORT;
	/* A return address may be the first byte after its call's function. */
	at = activation ? pc : pc - 1;
	if (in_spans(&w->kinds->tsan, at))
		w->in_tsan = 1;
	else if (in_spans(&w->kinds->loader, at))
		w->in_loader = 1;
	else if (!in_spans(&w->kinds->libc, at)) {
		w->program_pc = pc;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* No separate debug information: the unwinder needs only the CFI that
 * every module carries, and looking for more could take a network
 * round trip (debuginfod). */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	return -1;
}

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = no_debuginfo,
};

/* The process's modules, for unwinding threads we hold stopped. */
static Dwfl *open_unwinder(pid_t pid)
{
	Dwfl *dwfl = dwfl_begin(&proc_callbacks);

	if (dwfl && dwfl_linux_proc_report(dwfl, pid) == 0 &&
	    dwfl_report_end(dwfl, NULL, NULL) == 0 && dwfl_linux_proc_attach(dwfl, pid, true) == 0)
		return dwfl;
	if (dwfl)
		dwfl_end(dwfl);
	return NULL;
}

/* A stopped thread: 1 if it may be taken where it is; 0 with *resume,
 * where it will be; -1 if it cannot be known, or not yet (in the loader,
 * which it leaves of itself, soon). */
static int where_safe(Dwfl *dwfl, const struct code_kinds *k, pid_t tid, uintptr_t *resume)
{
	struct walk w = { .kinds = k };

	dwfl_getthread_frames(dwfl, tid, walk_frame, &w);
	if (!w.program_pc || w.in_loader)
		return -1;
	*resume = w.program_pc;
	return !w.in_tsan;
}

/* Debug registers do not fire here: threads are single-stepped. */
static int stepping;

/* The function a probe's child calls, a breakpoint on it. */
static __attribute__((noipa)) void probe_target(void)
{
	__asm__ volatile("");
}

/* Does a debug register's breakpoint trap on this machine?  A child,
 * stopped, gets one on probe_target, which it then calls: it stops there,
 * or runs to its end. */
static int hw_breaks_fire(void)
{
	int status, fired = 0;
	pid_t child = fork();

	if (child < 0)
		return 1;
	if (child == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		probe_target();
		_exit(0);
	}
	if (waitpid(child, &status, 0) == child && WIFSTOPPED(status) &&
	    arch_hw_break(child, (uintptr_t)probe_target) == 0 &&
	    ptrace(PTRACE_CONT, child, NULL, NULL) == 0 &&
	    waitpid(child, &status, 0) == child && WIFSTOPPED(status))
		fired = WSTOPSIG(status) == SIGTRAP && arch_hw_break_hit(child);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	return fired;
}

/* Let the thread run towards resume, with sig: to a breakpoint there, or
 * one instruction. */
static int run_towards(pid_t tid, uintptr_t resume, int sig)
{
	if (stepping)
		return ptrace(PTRACE_SINGLESTEP, tid, NULL, (void *)(long)sig) ? -1 : 0;
	return arch_hw_break(tid, resume) || ptrace(PTRACE_CONT, tid, NULL, (void *)(long)sig) ?
		       -1 : 0;
}

/* The threads given breakpoints, running towards them (0: one that
 * ended). */
struct waiting {
	pid_t *tids;
	size_t n, cap;
};

static int is_waiting(const struct waiting *w, pid_t tid)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->tids[i] == tid)
			return 1;
	return 0;
}

static void let_go(pid_t tid, int sig)
{
	arch_hw_break(tid, 0);
	ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)sig);
}

/* Is a SIGTRAP pending for the thread alone?  (SigPnd, in hex.) */
static int trap_pending(pid_t tid)
{
	char value[64];

	return cli_proc_status(tid, tid, "SigPnd", value, sizeof(value)) == 0 &&
	       (strtoull(value, NULL, 16) & (1ULL << (SIGTRAP - 1)));
}

/*
 * A thread that reached its breakpoint but stopped first for our
 * interrupt, or for another signal, still has the breakpoint's SIGTRAP to
 * take, and would die of it once let go.  It runs on (its breakpoint
 * cleared) until it stops with that SIGTRAP, the signals before it passed
 * on, and the trap is swallowed.
 */
/* The thread's next stop: the signal it stopped with (0 for a ptrace
 * event), or -1 if it ended or cannot be waited for. */
static int next_stop(pid_t tid)
{
	int status;

	while (waitpid(tid, &status, __WALL) != tid)
		if (errno != EINTR)
			return -1;
	if (!WIFSTOPPED(status))
		return -1;
	return (status >> 16) ? 0 : WSTOPSIG(status);
}

static void swallow_trap(pid_t tid, int sig)
{
	do {
		if (ptrace(PTRACE_CONT, tid, NULL, (void *)(long)sig))
			return;
		sig = next_stop(tid);
	} while (sig >= 0 && sig != SIGTRAP);
}

/* Stop a thread that runs towards its breakpoint, and let it go, its
 * breakpoint cleared; a signal it stopped with goes on, our trap not. */
static void call_off(pid_t tid)
{
	int sig, hit;

	if (ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) || (sig = next_stop(tid)) < 0)
		return;
	hit = stepping || arch_hw_break_hit(tid);
	arch_hw_break(tid, 0);
	if (hit && sig == SIGTRAP)
		sig = 0;
	else if (hit && trap_pending(tid)) {
		swallow_trap(tid, sig);
		sig = 0;
	}
	ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)sig);
}

static void call_off_all(struct waiting *w, pid_t keep)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->tids[i] && w->tids[i] != keep)
			call_off(w->tids[i]);
	free(w->tids);
}

/* The process, as it is looked at round after round. */
struct search {
	pid_t pid;
	struct code_kinds kinds;
	Dwfl *dwfl;
	struct waiting w;
	sigset_t chld;		/* SIGCHLD, blocked for the search */
	int stop_errno;		/* why a thread could not be stopped */
};

/* Look at one thread: taken (its id), given a breakpoint and let run
 * (0), or let go as it was, to be looked at again next round (0). */
static pid_t look_at(struct search *s, pid_t tid, int *sig)
{
	struct waiting *w = &s->w;
	uintptr_t resume;
	int stop_sig = attach_ptrace_stop(tid), safe;

	if (stop_sig < 0) {
		if (errno == EPERM)
			s->stop_errno = errno;
		return 0;
	}
	safe = where_safe(s->dwfl, &s->kinds, tid, &resume);
	if (safe == 1) {
		*sig = stop_sig;
		return tid;
	}
	if (safe < 0 || grow_array((void **)&w->tids, &w->cap, w->n + 1, sizeof(*w->tids)) ||
	    run_towards(tid, resume, stop_sig))
		let_go(tid, stop_sig);
	else
		w->tids[w->n++] = tid;
	return 0;
}

/* Every thread not yet waiting for its breakpoint: one taken, 0, or -1
 * if the process has ended.  A thread whose stack could not be read
 * through (stopped where the CFI says nothing, say) is looked at again in
 * the next round. */
static pid_t look_round(struct search *s, int *sig)
{
	char path[64];
	struct dirent *e;
	pid_t taken = 0, tid;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)s->pid);
	if (!(d = opendir(path)))
		return -1;
	while (!taken && (e = readdir(d)))
		if ((tid = atoi(e->d_name)) > 0 && !is_waiting(&s->w, tid))
			taken = look_at(s, tid, sig);
	closedir(d);
	return taken;
}

static void forget(struct waiting *w, pid_t tid)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->tids[i] == tid)
			w->tids[i] = 0;
}

#define ROUND_MS 20

/* Has a waiting thread that stopped with SIGTRAP arrived: at its
 * breakpoint, or, stepping, in the program's code? */
static int arrived(struct search *s, pid_t tid)
{
	uintptr_t resume;

	if (!stepping)
		return arch_hw_break_hit(tid);
	return where_safe(s->dwfl, &s->kinds, tid, &resume) == 1;
}

/* Until a thread we trace stops (its SIGCHLD, held blocked through the
 * search), or a millisecond.  Not a sleep of that millisecond: a thread
 * stepped stops again within microseconds, and a step each millisecond
 * took the few hundred steps out of an interceptor past the time limit
 * on a loaded machine. */
static void await_stop(const sigset_t *chld)
{
	struct timespec ms = { 0, 1000 * 1000 };

	sigtimedwait(chld, NULL, &ms);
}

/* A waiting thread arrived within the round, or 0.  Other stops of
 * theirs pass their signals on.  The round's time counts only while no
 * thread steps. */
static pid_t ready_in_round(struct search *s)
{
	int status, sig, stepped;
	pid_t tid;

	for (unsigned ms = 0; ms < ROUND_MS && !attach_timed_out(); ms += !stepped) {
		stepped = 0;
		while ((tid = waitpid(-1, &status, __WALL | WNOHANG)) > 0) {
			if (!WIFSTOPPED(status)) {
				forget(&s->w, tid);
				continue;
			}
			sig = (status >> 16) ? 0 : WSTOPSIG(status);
			if (sig == SIGTRAP && arrived(s, tid))
				return tid;
			if (sig == SIGTRAP && stepping)
				sig = 0;	/* the step's own */
			stepped |= stepping;
			ptrace(stepping ? PTRACE_SINGLESTEP : PTRACE_CONT, tid, NULL, (void *)(long)sig);
		}
		await_stop(&s->chld);
	}
	return 0;
}

static int search_open(struct search *s, pid_t pid)
{
	*s = (struct search){ .pid = pid, .kinds.is_tsan = attach_is_tsan(pid) };
	if (read_code_kinds(&s->kinds, pid) == 0 && (s->dwfl = open_unwinder(pid)))
		return 0;
	cli_error("process %d: cannot read where its threads are", (int)pid);
	return -1;
}

static void search_close(struct search *s, pid_t taken)
{
	call_off_all(&s->w, taken);
	dwfl_end(s->dwfl);
	free(s->kinds.tsan.v);
	free(s->kinds.loader.v);
	free(s->kinds.libc.v);
}

/* Why no thread was taken, in one line. */
static void not_taken(const struct search *s)
{
	if (kill(s->pid, 0) && errno == ESRCH)
		cli_error("process %d has ended", (int)s->pid);
	else if (s->stop_errno)
		cli_error("cannot attach to process %d: %s", (int)s->pid, strerror(s->stop_errno));
	else
		cli_error("process %d: none of its threads came back to its own code from %s "
			  "within the time limit; try again while it runs", (int)s->pid,
			  s->kinds.is_tsan ? "ThreadSanitizer's runtime or the dynamic loader" :
				    "the dynamic loader");
}

pid_t attach_seize_safe(pid_t pid, int *sig)
{
	struct search s;
	pid_t taken = 0;
	sigset_t was;

	*sig = 0;
	if (search_open(&s, pid))
		return -1;
	/* Only a thread in TSan's runtime is given a breakpoint. */
	stepping = s.kinds.is_tsan && (getenv("FNTRACE_NO_HW_BREAK") || !hw_breaks_fire());
	sigemptyset(&s.chld);
	sigaddset(&s.chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &s.chld, &was);
	while (!taken && !attach_timed_out())
		if (!(taken = look_round(&s, sig)))
			taken = ready_in_round(&s);
	sigprocmask(SIG_SETMASK, &was, NULL);
	search_close(&s, taken);
	if (taken > 0) {
		arch_hw_break(taken, 0);
		return taken;
	}
	not_taken(&s);
	return -1;
}
