// SPDX-License-Identifier: GPL-2.0
/*
 * libfntrace.so start-up.  Loaded (by LD_PRELOAD, or linked in) it turns
 * every call site of every module into a nop before main() runs; that is
 * all it does unless a recorder handed it shared memory, in which case
 * the tracer the recorder asked for is switched on.  Nothing here ever
 * runs again by itself: no thread, no timer.  Later work happens only
 * when the program loads a module (dlopen) or a user asks.
 *
 * The recorder's requests come in the environment:
 *   FNTRACE_SHM_FD    the shared-memory fd (none: do not trace)
 *   FNTRACE_DIR       the data directory, for funcs-<pid>
 *   FNTRACE_FILES_FD  the recorder's end for the files we cannot make
 *   FNTRACE_SNAPSHOT_FD, FNTRACE_SNAPSHOT_BELL   the recorder's snapshot
 *                     buffer and the eventfd to ring after each snapshot
 *                     (record --overwrite)
 *   FNTRACE_OOPS_FD   with no recorder: the ring run --dump-on-oops made,
 *                     which its keeper holds (FNTRACE_DIR: where the
 *                     function tables go)
 *   FNTRACE_TRACER    function | function_graph
 *   FNTRACE_FILTER, FNTRACE_NOTRACE   filter expressions, one per line
 *   FNTRACE_DEPTH     max_graph_depth
 *   FNTRACE_TRACING_THRESH  tracing_thresh, microseconds (record's, and
 *                     run's, for the tracer a user switches on later)
 *   FNTRACE_OPTIONS   comma-separated: funcgraph-retval
 *   FNTRACE_ARGS      argument specs (set_ftrace_args), one per line
 *   FNTRACE_ARGS_FILE a file of them: the recorder's, in its data directory
 *   FNTRACE_TRIGGERS  function triggers (set_ftrace_filter's commands), one
 *                     per line
 *   FNTRACE_SNAPSHOT_INTERVAL  snapshot_interval_ms
 *   FNTRACE_DEBUG     say what is found and done (messages.c)
 */
#include "args.h"
#include "breakpoint.h"
#include "triggers.h"
#include "buffer.h"
#include "clone.h"
#include "crash.h"
#include "control.h"
#include "early.h"
#include "exec_env.h"
#include "lock.h"
#include "messages.h"
#include "own_work.h"
#include "raw_syscall.h"
#include "readout.h"
#include "recorder_files.h"
#include "events.h"
#include "ftrace.h"
#include "funcs_file.h"
#include "limits.h"
#include "linkage.h"
#include "runtime.h"
#include "sanitized.h"
#include "seccomp.h"
#include "snapshot_ctl.h"
#include "thread.h"
#include "tracers.h"
#include "tasks.h"
#include "textprot.h"
#include "sync.h"
#include "tracing.h"
#include "../common/clock_pair.h"
#include "../common/fileio.h"

#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A fork holds the control lock (lock.c) across the system call. */
static void fork_done(void)
{
	ftrace_unlock();
}

static void fork_child(void)
{
	uint64_t from = ft_own_work_begin();

	ft_tasks_after_fork();
	ft_crash_after_fork();
	ftrace_unlock();
	ft_own_share_end(from);
}

static int env_filter(enum ft_filter_file which, const char *name)
{
	const char *list = getenv(name);
	char err[256];

	if (!list || !*list || ft_filter_preset(which, list, err, sizeof(err)) == 0)
		return 0;
	ft_warn("%s: %s", name, err);
	return -1;
}

/* Argument specs: the recorder's, in a file of its data directory (there
 * may be thousands: --auto-args), or in the environment. */
static int env_args(void)
{
	const char *list = getenv("FNTRACE_ARGS"), *path = getenv("FNTRACE_ARGS_FILE");
	char err[256], *text = path ? read_text_file(path) : NULL;
	int ret = 0;

	/* A program exec'd after a chroot does not see the directory. */
	if (path && !text)
		text = ft_recorder_read_args();

	if (path && !text) {
		ft_warn("FNTRACE_ARGS_FILE: cannot read %s", path);
		return -1;
	}
	if (list && *list && ft_args_write(list, 1, err, sizeof(err))) {
		ft_warn("FNTRACE_ARGS: %s", err);
		ret = -1;
	}
	if (!ret && text && ft_args_write(text, 1, err, sizeof(err))) {
		ft_warn("FNTRACE_ARGS_FILE: %s", err);
		ret = -1;
	}
	free(text);
	return ret;
}

static int option_set(const char *options, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = options; p && (p = strstr(p, name)); p += len)
		if ((p == options || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return 1;
	return 0;
}

/* tracing_thresh, whether a recorder starts a tracer now or a user does
 * later (fntrace run). */
static void env_thresh(void)
{
	const char *us = getenv("FNTRACE_TRACING_THRESH");
	char *end;
	unsigned long v;

	if (!us || !*us)
		return;
	v = strtoul(us, &end, 10);
	if (*end || !isdigit((unsigned char)*us) || v > UINT_MAX)
		ft_warn("FNTRACE_TRACING_THRESH: not a number of microseconds: '%s'", us);
	else
		ft_graph_set_thresh(v);
}

/* snapshot_interval_ms, from run's or record's --snapshot-interval. */
static void env_interval(void)
{
	const char *ms = getenv("FNTRACE_SNAPSHOT_INTERVAL");
	char *end;
	unsigned long v;

	if (!ms || !*ms)
		return;
	v = strtoul(ms, &end, 10);
	if (*end || !isdigit((unsigned char)*ms) || v > 3600000)
		ft_warn("FNTRACE_SNAPSHOT_INTERVAL: not a number of milliseconds: '%s'", ms);
	else
		ft_trigger_set_interval_ms(v);
}

/* Switch on the tracer the recorder asked for. */
static int start_tracer(void)
{
	const char *tracer = getenv("FNTRACE_TRACER");
	const char *depth = getenv("FNTRACE_DEPTH");
	char err[256];

	if (env_filter(FT_FILTER, "FNTRACE_FILTER") ||
	    env_filter(FT_NOTRACE, "FNTRACE_NOTRACE"))
		return -1;
	if (env_args())
		return -1;
	ft_graph_set_depth(depth ? strtoul(depth, NULL, 10) : 0);
	ft_graph_set_retval(option_set(getenv("FNTRACE_OPTIONS"), "funcgraph-retval"));
	if (ft_tracer_set(tracer ? tracer : "function_graph", err, sizeof(err)) == 0)
		return 0;
	ft_warn("%s", err);
	return -1;
}

/* The triggers the command line gave (run or record --trigger), a line
 * each: set one by one, so that one naming no function is said and the
 * others stand.  A program with no call sites at all (a shell the
 * recorded program runs under) has none to say it lacks. */
static void env_triggers(void)
{
	const char *list = ftrace_rec_count() ? getenv("FNTRACE_TRIGGERS") : NULL;
	char *copy = list ? strdup(list) : NULL, *save = NULL, err[256];

	for (char *t = copy ? strtok_r(copy, "\n", &save) : NULL; t;
	     t = strtok_r(NULL, "\n", &save))
		if (ft_filter_write(FT_FILTER, t, 1, err, sizeof(err)))
			ft_warn("trigger not set: %s", err);
	free(copy);
}

/* The program has call sites, or detours and a filter that may name
 * them (none of them is traced without one: detours.c). */
static int program_traceable(void)
{
	const struct ft_module *prog = ftrace_module_get(0);
	const char *filter = getenv("FNTRACE_FILTER");

	return prog->nr_recs || (prog->nr_detours && filter && *filter);
}

/* Attach to the recorder, if there is one; 0 if there is none. */
static int attach_recorder(void)
{
	const char *fd = getenv("FNTRACE_SHM_FD");

	if (!fd)
		return 0;
	ft_recorder_files_init(getenv("FNTRACE_FILES_FD"));
	if (ft_buffer_attach(atoi(fd), "FNTRACE_SHM_FD") || ft_funcs_open(getenv("FNTRACE_DIR")) ||
	    ft_snapshot_from_recorder(getenv("FNTRACE_SNAPSHOT_FD"),
				      getenv("FNTRACE_SNAPSHOT_BELL"))) {
		ft_warn("cannot reach the recorder: not tracing");
		return -1;
	}
	return 1;
}

/*
 * run --dump-on-oops: the ring run made, which its keeper holds, is the
 * process's own buffer, and a crash stamps it (crash.c).  Nothing is
 * traced until a user switches a tracer on, as under run.  The tables go
 * where the keeper copies them from; without them a dump names no
 * function, which is said.
 */
static void attach_keeper(void)
{
	const char *fd = getenv("FNTRACE_OOPS_FD");

	if (!fd)
		return;
	if (ft_buffer_attach(atoi(fd), "FNTRACE_OOPS_FD") || ft_crash_start())
		ft_warn("cannot take fntrace run's ring: a crash will not be dumped");
	else if (ft_funcs_open(getenv("FNTRACE_DIR")))
		ft_warn("cannot write the function table: a crash's dump will not name them");
}

static void start(void)
{
	int recording;

	ft_exec_env_start();
	if (ft_exec_env_stays_out())
		return;
	ft_messages_start();
	ft_raw_syscall_init();
	ft_sanitized_start();
	ft_limits_startup_begin();
	if (ft_threads_init()) {
		ft_limits_startup_end();
		return;
	}
	ftrace_bp_init();
	ft_atfork(ftrace_lock_for_fork, fork_done, fork_child);
	ft_readout_clock_start();
	ftrace_sync_init();
	ftrace_sync_after_exec();
	ft_seccomp_scan();
	text_window_prepare();
	ftrace_lock();
	ft_sanitized_hooks();
	/* Loaded into a running process (fntrace attach), other threads
	 * may be running code this start-up patches. */
	ft_tasks_init();
	if (ft_count_threads() > 1)
		ftrace_patch_go_live();
	recording = attach_recorder();
	if (!recording)
		attach_keeper();
	env_thresh();
	env_interval();
	if (recording > 0 || getenv("FNTRACE_TRIGGERS"))
		ftrace_modules_want_records();
	if (ftrace_modules_pinned(NULL) < 0)
		ftrace_kill("cannot read the modules");
	else if (recording > 0 && ftrace_module_count() && !program_traceable())
		ft_funcs_note_untraced(ftrace_module_get(0)->path);
	else if (recording > 0 && start_tracer())
		ftrace_kill("cannot start the tracer");
	if (recording >= 0 && !ftrace_killed())
		env_triggers();
	ft_snapshot_note_tracer();
	ftrace_patch_go_live();
	ftrace_unlock();
	if (getenv("FNTRACE_CONTROL") && !strcmp(getenv("FNTRACE_CONTROL"), "1"))
		ft_control_start();
	ft_limits_startup_end();
}

static _Atomic int asked, started;

int ft_runtime_started(void)
{
	return atomic_load(&started);
}

/* Our constructor, or a call to mcount that comes before it (early.c):
 * whichever is first starts the runtime, once; or, linked into a program
 * fntrace does not run, leaves it dormant for good. */
void ft_runtime_start(void)
{
	uint64_t from = ft_monotonic_ns();

	if (atomic_exchange(&asked, 1))
		return;
	if (ft_runtime_wanted()) {
		atomic_store(&started, 1);
		start();
	}
	ft_early_started();
	ft_own_work_end(from);
}

__attribute__((constructor)) static void fntrace_init(void)
{
	ft_runtime_start();
}

/* A module loaded or unloaded: its sites become nops, and what the ops
 * want of them is patched in, before the program can call into it.  (A
 * module unloaded meanwhile cannot hurt an update in another thread: every
 * update brings the module list up to date itself, see
 * ftrace_modules_pinned.) */
static void update_modules(void)
{
	if (!ftrace_killed() && ft_seccomp_may_patch() && ftrace_update())
		ft_warn("cannot patch a newly loaded module");
}

static void modules_changed(void)
{
	uint64_t from = ft_own_work_begin();

	ftrace_lock();
	update_modules();
	ftrace_unlock();
	ft_own_work_end(from);
}

FT_EXPORT void *dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);
	void *handle;

	if (!real)
		real = ft_real("dlopen");
	ft_early_dlopen_enter();
	handle = real(file, mode);
	ft_early_dlopen_leave();
	if (handle)
		modules_changed();
	return handle;
}

FT_EXPORT int dlclose(void *handle)
{
	static int (*real)(void *);
	int ret;

	if (!real)
		real = ft_real("dlclose");
	ret = real(handle);
	modules_changed();
	return ret;
}

/*
 * The start of a program fntrace cc linked: its .preinit_array calls
 * this, if the runtime is loaded, before every library's constructor,
 * libc's too.  libc has not set environ yet: the loader's envp stands in
 * (libc's constructor sets the same).
 */
FT_EXPORT void fntrace_preinit(int argc, char **argv, char **envp)
{
	if (!environ)
		environ = envp;
	ft_runtime_start();
}

/* Is addr in a module the runtime knows?  Under ftrace_lock. */
static int module_known(uintptr_t addr)
{
	for (unsigned i = 0; i < ftrace_module_count(); i++) {
		struct ft_module *m = ftrace_module_get(i);

		if (!m->gone && addr >= m->start && addr < m->end)
			return 1;
	}
	return 0;
}

/* A module may have come that no update has read yet, addr in it: read
 * it, unless it is known (a site of it still calls mcount because its
 * bytes were not what the file said). */
void ft_module_arrived(uintptr_t addr)
{
	uint64_t from = ft_own_work_begin();

	ftrace_lock();
	if (!module_known(addr))
		update_modules();
	ftrace_unlock();
	ft_own_work_end(from);
}

/*
 * The first initialiser of a library fntrace cc linked (self is in it):
 * the library is read before its constructors run, at start-up (linked
 * to a program that fntrace cc did not link) or inside dlopen().
 */
FT_EXPORT void fntrace_module_init(const void *self)
{
	if (!ft_runtime_started())
		ft_runtime_start();
	else
		ft_module_arrived((uintptr_t)self);
}
