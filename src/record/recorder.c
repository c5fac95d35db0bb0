// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder: shared memory for the traced process's buffers, the
 * process itself, and the loop that drains full chunks to trace.dat until
 * the process ends.  Then the chunks it was still filling are read too
 * (they end at their first zero word), so a program that crashed, or was
 * killed, loses nothing it had written.
 *
 * The recorder is the subreaper of the program's processes: one that its
 * parent left running is still drained, until it ends too (or Ctrl-C).
 *
 * Once the program runs, nothing the recording meets (a full disk, the
 * directory removed) stops it or changes its exit status: the recorder
 * drains on, keeps what fit, and says what it could not keep.
 */
#include "../cli/cli.h"
#include "../arch/arch.h"
#include "datadir.h"
#include "drain.h"
#include "file_service.h"
#include "flight.h"
#include "../target/probe.h"
#include "../dwarf/auto_args.h"
#include "record.h"
#include "../common/clock_pair.h"
#include "../common/shm.h"
#include "../target/target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct recorder {
	struct ft_shm *shm;
	int shm_fd;
	struct datadir dir;
	struct drainer drainer;
	struct file_service files;	/* files for the processes that can no
					 * longer open them */
	struct flight flight;		/* --overwrite: the snapshots */
	struct datadir_info info;
	struct kevents *kev;		/* -e: the kernel's events, or NULL */
	struct kev_request kev_req;	/* -e's, in the program's numbering */
	pid_t pid;
	int status;
	int has_sites;		/* the program itself has call sites */
	const char *no_libcalls;	/* its arch, if library calls are not traced */
	char *refused;			/* -F names said not traceable, a line each */
	int exited;		/* the program (pid) has ended */
	uint64_t ended_ns;	/* when, on CLOCK_MONOTONIC */
	int wait_said;		/* that it waits for what the program left */
	char args_file[4200];	/* -A/-R/--auto-args: the specs, in the data directory */
};

static volatile sig_atomic_t child_done;

static void on_sigchld(int sig)
{
	child_done = 1;
}

/*
 * SIGTERM, SIGHUP and SIGINT sent to the recorder are meant for the
 * program (timeout, a closing terminal, a service manager, kill): the
 * recorder does not die of them with the recording unsealed and the
 * program orphaned, but passes them on, records until the program ends
 * and seals.  A Ctrl-C from the terminal reached the whole process group,
 * the program too: it is not sent again.  Once the program has ended,
 * any of them ends the wait for what it left running.
 */
static volatile sig_atomic_t to_pass_on, stop_asked;

static void on_stop_signal(int sig, siginfo_t *si, void *uc)
{
	if (!(sig == SIGINT && si->si_code == SI_KERNEL))
		to_pass_on = sig;
	stop_asked = 1;
}

static void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_sigaction = on_stop_signal, .sa_flags = SA_SIGINFO };

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

/* Outside the handler, so that a signal sent to the process group and
 * already pending in the program is not sent twice. */
static void pass_on_signal(const struct recorder *r)
{
	int sig = to_pass_on;
	char pending[32];
	unsigned long long mask = 0;

	if (!sig || r->exited)
		return;
	to_pass_on = 0;
	if (cli_proc_status(r->pid, 0, "ShdPnd", pending, sizeof(pending)) == 0)
		mask = strtoull(pending, NULL, 16);
	if (!(mask & (1ULL << (sig - 1))))
		kill(r->pid, sig);
}

/* The buffers, in the program's byte order (see trace_format.h); with
 * --overwrite, a ring that keeps the newest events, as the kernel's. */
static int shm_create(struct recorder *r, const struct record_options *o, int big_endian)
{
	unsigned flags = o->overwrite ? FT_SHM_OVERWRITE : 0;

	if (o->kevents.groups & (KEV_GROUP_SYSCALLS | KEV_GROUP_FAULTS))
		flags |= FT_SHM_OWN_WORK;

	if (ft_shm_create(o->buffer_kb, flags, big_endian != FT_BIG_ENDIAN, &r->shm_fd,
			  &r->shm) == 0)
		return 0;
	cli_error("cannot create the shared buffers: %s", strerror(errno));
	return -1;
}

/* With kernel events, a pass every 10 ms: their rings are not ours to
 * wake on, and a storm of system calls fills one in a few. */
static void wait_for_chunks(struct recorder *r, uint32_t seen)
{
	if (!child_done)
		drain_wait(&r->drainer, seen, r->kev ? KEV_PASS_MS : 100);
}

static int child_exited(struct recorder *r)
{
	pid_t p = waitpid(r->pid, &r->status, WNOHANG);

	return p == r->pid;
}

/* Reap what has ended of the processes the program left behind; 1 when
 * none is left. */
static int descendants_gone(void)
{
	pid_t p;

	while ((p = waitpid(-1, NULL, WNOHANG | __WALL)) > 0)
		;
	return p < 0 && errno == ECHILD;
}

/* Once the program has ended: is there anything left to wait for?  A
 * wait is said once it lasts: what ends a moment after the program (a
 * sanitizer's symbolizer, whose pipe closed) is waited for silently.  A
 * moment is up to two seconds: TSan's symbolizer took over half of one
 * to go on a loaded machine. */
static int recording_done(struct recorder *r, const char *name)
{
	const uint64_t said_after_ns = 2000ULL * 1000 * 1000;

	if (descendants_gone() || stop_asked)
		return 1;
	if (!r->exited++)
		r->ended_ns = ft_monotonic_ns();
	if (!r->wait_said && ft_monotonic_ns() - r->ended_ns >= said_after_ns) {
		r->wait_said = 1;
		fprintf(stderr, "fntrace: %s ended; recording the processes it left running "
			"until they end (Ctrl-C to stop)\n", name);
	}
	return 0;
}

static void drain_until_exit(struct recorder *r, const char *name)
{
	for (;;) {
		uint32_t seen = atomic_load(&r->shm->published);

		drain(&r->drainer, DRAIN_FULL);
		if (r->kev)
			kev_drain(r->kev);
		file_service_serve(&r->files, &r->dir);
		drain_keep_info(&r->drainer);
		pass_on_signal(r);
		if ((r->exited || child_exited(r)) && recording_done(r, name)) {
			drain(&r->drainer, DRAIN_DEAD);
			r->info.unsaid = drain_lost_unsaid(&r->drainer);
			return;
		}
		wait_for_chunks(r, seen);
		child_done = 0;
	}
}

/*
 * --overwrite: nothing is drained and nothing written while the program
 * runs, and the recorder sleeps in one ppoll() until a snapshot is taken
 * (the bell), a process of the program asks for a file, or a signal
 * comes (the program ended, or one to pass on).  Those signals are
 * blocked but in ppoll(), so none comes between a look and the sleep.
 * With -e, the kernel's rings are read every KEV_PASS_MS (keep.c).
 */
static void fly_until_exit(struct recorder *r, const char *name)
{
	struct timespec said = { 0, 500 * 1000 * 1000 }, pass = { 0, KEV_PASS_MS * 1000000L };
	sigset_t waits, during;

	sigemptyset(&waits);
	sigaddset(&waits, SIGCHLD);
	sigaddset(&waits, SIGTERM);
	sigaddset(&waits, SIGHUP);
	sigaddset(&waits, SIGINT);
	sigprocmask(SIG_BLOCK, &waits, &during);
	for (;;) {
		struct pollfd p[2] = { { .fd = r->flight.bell, .events = POLLIN },
				       { .fd = r->files.ours, .events = POLLIN } };

		if (r->kev)
			kev_drain(r->kev);
		flight_take_new(&r->flight);
		flight_crash_take(&r->flight);
		file_service_serve(&r->files, &r->dir);
		pass_on_signal(r);
		if ((r->exited || child_exited(r)) && recording_done(r, name))
			break;
		/* what the program left running: said after a while */
		ppoll(p, 2, r->kev ? &pass : r->exited && !r->wait_said ? &said : NULL, &during);
		child_done = 0;
	}
	sigprocmask(SIG_SETMASK, &during, NULL);
}

/* --overwrite: the control endpoint (fntrace ctl PID snapshot 1), the
 * snapshot buffer and the bell.  Without it, FNTRACE_CONTROL is the
 * user's to set. */
static int flight_env(const struct record_options *o, const struct recorder *r)
{
	char fd[16], bell[16];

	snprintf(fd, sizeof(fd), "%d", r->flight.snap_fd);
	snprintf(bell, sizeof(bell), "%d", r->flight.bell);
	return (o->overwrite && cli_set_env("FNTRACE_CONTROL", "1")) ||
	       cli_set_env("FNTRACE_SNAPSHOT_FD", o->overwrite ? fd : NULL) ||
	       cli_set_env("FNTRACE_SNAPSHOT_BELL", o->overwrite ? bell : NULL) ||
	       cli_set_env("FNTRACE_SNAPSHOT_SIGNAL", o->overwrite ? o->snapshot_signal : NULL) ||
	       (o->overwrite && (fcntl(r->flight.snap_fd, F_SETFD, 0) ||
				 fcntl(r->flight.bell, F_SETFD, 0)));
}

/* The runtime first in LD_PRELOAD, its mcount winning over libc's; only
 * a sanitizer's runtime comes before it. */
static int child_env(const struct record_options *o, const struct recorder *r,
		     const char *path, const char *lib)
{
	char fd[16], files_fd[16], depth[16], thresh[16];

	snprintf(fd, sizeof(fd), "%d", r->shm_fd);
	snprintf(files_fd, sizeof(files_fd), "%d", r->files.theirs);
	snprintf(depth, sizeof(depth), "%u", o->depth);
	snprintf(thresh, sizeof(thresh), "%u", o->thresh);
	return cli_target_env(path, lib) || cli_set_env("FNTRACE_SHM_FD", fd) ||
	       cli_set_env("FNTRACE_DIR", r->dir.tmp) ||
	       cli_set_env("FNTRACE_FILES_FD", r->files.theirs >= 0 ? files_fd : NULL) ||
	       cli_set_env("FNTRACE_TRACER", o->tracer) ||
	       cli_set_env("FNTRACE_FILTER", o->filter) || cli_set_env("FNTRACE_NOTRACE", o->notrace) ||
	       cli_set_env("FNTRACE_TRIGGERS", o->triggers) ||
	       cli_set_env("FNTRACE_SNAPSHOT_INTERVAL", o->snap_interval) ||
	       cli_set_env("FNTRACE_DEPTH", o->depth ? depth : NULL) ||
	       cli_set_env("FNTRACE_TRACING_THRESH", o->thresh ? thresh : NULL) ||
	       cli_set_env("FNTRACE_OPTIONS", o->retval ? "funcgraph-retval" : NULL) ||
	       cli_set_env("FNTRACE_ARGS_FILE", o->args || o->auto_args ? r->args_file : NULL) ||
	       flight_env(o, r);
}

static int spawn(struct recorder *r, const struct record_options *o,
		 const char *path, const char *lib)
{
	int ready[2], gate[2] = { -1, -1 };
	char err = 0;

	if (pipe2(ready, O_CLOEXEC) || kev_gate_make(&r->kev_req, gate))
		return -1;
	r->pid = fork();
	if (r->pid == 0) {
		kev_gate_wait(gate);
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);
		/* The buffers' fd, and the file service's, are for the
		 * runtime to find, across exec. */
		if (fcntl(r->shm_fd, F_SETFD, 0) == 0 &&
		    (r->files.theirs < 0 || fcntl(r->files.theirs, F_SETFD, 0) == 0) &&
		    child_env(o, r, path, lib) == 0)
			execv(path, o->argv);
		err = 1;
		if (write(ready[1], &err, 1) < 0)
			_exit(127);
		_exit(127);
	}
	close(ready[1]);
	r->kev = kev_gate_open(gate, &r->kev_req, r->pid, o->overwrite ? NULL : r->dir.tmp,
			       (size_t)o->buffer_kb << 10);
	if (r->kev)
		kev_leave_out_control(r->kev, r->shm);
	r->flight.kev = r->kev;
	file_service_started(&r->files);
	if (r->pid > 0 && read(ready[0], &err, 1) == 1)
		err = 1;
	close(ready[0]);
	if (r->pid < 0 || err) {
		cli_error("cannot run %s: %s", path, r->pid < 0 ? strerror(errno) : "exec failed");
		if (r->pid > 0)
			waitpid(r->pid, NULL, 0);
		return -1;
	}
	return 0;
}

void record_describe_exit(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "status %d", WEXITSTATUS(status));
	else
		snprintf(buf, len, "signal %d SIG%s%s", WTERMSIG(status),
			 sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?",
			 WCOREDUMP(status) ? " (core dumped)" : "");
}

static int describe_run(struct datadir_info *info, const struct record_options *o)
{
	size_t argc = 0;

	while (o->argv[argc])
		argc++;
	info->command = cli_command_line(o->argv, argc);
	info->tracer = o->tracer;
	info->retval = o->retval;
	info->filter = o->filter;
	info->notrace = o->notrace;
	info->depth = o->depth;
	info->thresh = o->thresh;
	info->max_size = o->max_size;
	kev_request_text(&o->kevents, info->kevents, sizeof(info->kevents));
	return info->command ? 0 : -1;
}

/*
 * The second clock sample.  Every event lies between the two, so an
 * event's time is off by at most the error of one sample (tens of ns, or
 * a tick of a slow counter), however short the run: the window only has
 * to hold enough ticks of the slowest counter (riscv64's rdtime, 10 MHz
 * under qemu) for a rate good to 1e-4.  It was 20 ms, and was most of
 * the start-up cost of recording a short program.
 */
static void clock_end(struct clock_sync *c)
{
	const uint64_t min_ns = 2 * 1000 * 1000;

	ft_clock_pair(&c->ticks[1], &c->ns[1]);
	if (c->ns[1] - c->ns[0] < min_ns) {
		struct timespec rest = { 0, (long)(min_ns - (c->ns[1] - c->ns[0])) };

		nanosleep(&rest, NULL);
		ft_clock_pair(&c->ticks[1], &c->ns[1]);
	}
}

/* 1: PROG has call sites; 0: it may be a launcher (env, sh -c, nice,
 * strace -f ...) of a program that has: it runs, and what it starts is
 * traced, the runtime following every exec; -1 (said): no such program,
 * or not one fntrace can run. */
static int check_program(const char *path, const char *name)
{
	int n;

	if (!path) {
		cli_error("%s: no such program", name);
		return -1;
	}
	if (probe_runtime_reachable(path))
		return -1;
	n = probe_traceable(path);
	return n < 0 ? -1 : n > 0;
}

/* Where what a recording that stopped early stored is now. */
static void where_kept(const struct datadir *d, int sealed, char *buf, size_t len)
{
	if (d->stream)
		snprintf(buf, len, "what arrived is with the listener at %s",
			 datadir_stream_where(d));
	else if (sealed)
		snprintf(buf, len, "what fit is in %s", d->final);
	else if (d->error == ENOENT)
		snprintf(buf, len, "nothing kept");
	else
		snprintf(buf, len, "left unsealed in %s", d->tmp);
}

/* One line on how the recording went: the summary, or what it could
 * not store. */
static void say_result(const struct recorder *r, const struct record_options *o, int sealed)
{
	const struct datadir *d = &r->dir;
	uint64_t lost_total = r->drainer.written.lost + r->info.unsaid;
	char lost[64] = "", missed[160], ending[256], kept[4200], cut[192];

	if (!d->error) {
		if (sealed)
			drain_say_summary(&r->drainer, o->transient ? NULL :
					  d->stream ? datadir_stream_where(d) : o->output);
		return;
	}
	if (lost_total)
		snprintf(lost, sizeof(lost), "; %llu events lost (buffers full)",
			 (unsigned long long)lost_total);
	where_kept(d, sealed, kept, sizeof(kept));
	fprintf(stderr, "fntrace: recording stopped, %s: %s; %llu events dropped%s%s%s\n",
		datadir_ending(d, ending, sizeof(ending)), kept,
		(unsigned long long)r->info.dropped, lost,
		tr_format_missed(missed, sizeof(missed), &r->drainer.written),
		drain_say_cut(&r->drainer, cut, sizeof(cut)));
}

/* A recording that failed turns the program's clean exit into 1. */
static int failed(int status)
{
	return record_exit_code(status) ? status : 1 << 8;
}

/* Did the program run untraced?  Said if so. */
static int untraced(const struct recorder *r, const struct record_options *o, const char *path)
{
	const struct record_untraced u = {
		.dir = r->dir.tmp,
		.argv0 = o->argv[0],
		.path = path,
		.has_sites = r->has_sites,
		.killed = !!(ft_shm_u32(r->shm, atomic_load(&r->shm->flags)) & FT_SHM_KILLED),
		.events = r->drainer.written.events,
		.filtered = o->filter != NULL,
	};

	return record_untraced(&u);
}

/* Once the program runs, its exit status is passed on whatever happens
 * to the recording; but a recording that could not be put in place, or
 * where nothing was traced, makes a clean exit a failure. */
static int record_program(struct recorder *r, const struct record_options *o,
			  const char *path, const char *lib)
{
	struct sigaction sa = { .sa_handler = on_sigchld };

	sigaction(SIGCHLD, &sa, NULL);
	catch_stop_signals();
	signal(SIGQUIT, SIG_IGN);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (spawn(r, o, path, lib))
		return -1;
	r->info.pid = r->pid;
	datadir_stream_begin(&r->dir, o->argv[0], r->pid);
	r->flight.own_pid = (uint32_t)r->pid;
	if (o->overwrite && flight_dir_tag(r->flight.dir, &r->info))
		cli_error("cannot write %s/flight: %s", r->flight.dir, strerror(errno));
	if (o->overwrite)
		fly_until_exit(r, o->argv[0]);
	else
		drain_until_exit(r, o->argv[0]);
	clock_end(&r->info.clock);
	if (r->kev)
		kev_last(r->kev);
	record_describe_exit(r->status, r->info.exit, sizeof(r->info.exit));
	if (o->overwrite)
		flight_final(&r->flight, flight_end_reason(&r->flight, r->status), 1);
	if (r->kev)
		kev_finish(r->kev);	/* after the last snapshot took the last */
	if (o->overwrite) {
		flight_say_summary(&r->flight);
		return r->status;
	}
	if (!r->dir.error && untraced(r, o, path)) {
		datadir_abandon(&r->dir);	/* the previous recording stays */
		return failed(r->status);
	}
	say_result(r, o, datadir_seal(&r->dir) == 0);
	record_say_unmatched(r->dir.unplaced ? r->dir.tmp : r->dir.final, o, r->no_libcalls,
			     r->refused);
	if (r->dir.stream)
		datadir_abandon(&r->dir);	/* the staging directory */
	return r->dir.unplaced ? failed(r->status) : r->status;
}

/* -A/-R's specs and those --auto-args finds in the program's DWARF, into
 * the data directory's args file, which the runtime reads (there may be
 * thousands) and the report too (the values' names). */
static int write_specs(struct recorder *r, const struct record_options *o,
		       const struct cli_target *t, const char *path)
{
	char enums_file[4200];
	FILE *out, *enums = NULL;
	int n = 0;

	snprintf(r->args_file, sizeof(r->args_file), "%s/args", r->dir.tmp);
	snprintf(enums_file, sizeof(enums_file), "%s/enums", r->dir.tmp);
	out = fopen(r->args_file, "we");
	if (out && o->auto_args && !(enums = fopen(enums_file, "we")))
		n = -1;
	if (!out || n < 0) {
		cli_error("cannot write %s", out ? enums_file : r->args_file);
		if (out)
			fclose(out);
		return -1;
	}
	if (o->args)
		fprintf(out, "%s\n", o->args);
	if (o->auto_args)
		n = auto_args_write(path, cli_target_auto_args_arch(t), out, enums);
	if (n == 0 && o->auto_args)
		cli_error("--auto-args: the DWARF of %s describes no function's parameters", path);
	if ((fclose(out) | (enums ? fclose(enums) : 0)) && n >= 0) {
		cli_error("cannot write %s", r->args_file);
		n = -1;
	}
	return n < 0 ? -1 : 0;
}

/* --overwrite: DIR for the snapshots, with the run's info; what the
 * processes write (funcs-PID, the specs) goes to DIR/shared, which
 * stands for the data directory of a recording. */
static int start_flight(struct recorder *r, const struct record_options *o)
{
	r->info.started = time(NULL);
	ft_clock_pair(&r->info.clock.ticks[0], &r->info.clock.ns[0]);
	r->info.clock.ticks[1] = r->info.clock.ticks[0];
	r->info.clock.ns[1] = r->info.clock.ns[0];
	if (flight_start(&r->flight, o->output, r->shm, &r->info) || flight_crash_watch(&r->flight))
		return -1;
	r->flight.tables = flight_shared_tables;
	r->flight.tables_arg = &r->flight;
	snprintf(r->dir.tmp, sizeof(r->dir.tmp), "%s", r->flight.shared);
	snprintf(r->dir.final, sizeof(r->dir.final), "%s", r->flight.dir);
	r->dir.info = &r->info;
	return 0;
}

/* -e's system calls by the numbers the program's calls have. */
int record_kevents_for(const struct record_options *o, const struct cli_target *t,
		       struct kev_request *req)
{
	char err[256];

	*req = o->kevents;
	if (!o->kevents.groups ||
	    kev_request_for_arch(req, cli_target_syscall_arch(t), err, sizeof(err)) == 0)
		return 0;
	cli_error("%s", err);
	return -1;
}

int record_run(const struct record_options *o)
{
	struct recorder r = { .shm_fd = -1, .dir.trace_fd = -1, .files = { -1, -1 },
			      .flight = { .snap_fd = -1, .bell = -1, .pidfd = -1 } };
	char *path = cli_find_program(o->argv[0]), *lib = NULL;
	struct cli_target target;
	int ret = -1;

	if ((!o->host && datadir_check_output(o->output)) ||
	    (r.has_sites = check_program(path, o->argv[0])) < 0 || cli_target_of(path, &target) ||
	    cli_target_check_args(&target, o->args) ||
	    (o->auto_args && !cli_target_auto_args_arch(&target)) ||
	    cli_target_prepare(&target, path) || !(lib = cli_find_runtime(&target)) ||
	    record_kevents_for(o, &target, &r.kev_req))
		goto out;
	if (describe_run(&r.info, o))
		goto out;
	r.refused = probe_detours_prepare(path, o->filter, "-F");
	r.no_libcalls = cli_target_no_libcalls(&target);
	signal(SIGXFSZ, SIG_IGN);	/* a file size limit is a failed write */
	if (shm_create(&r, o, target.big_endian) ||
	    (o->overwrite ? start_flight(&r, o) :
	     o->host ? datadir_stream_create(&r.dir, o->host, &r.info) :
	     datadir_create(&r.dir, o->output, &r.info)))
		goto out;
	if ((o->args || o->auto_args) && write_specs(&r, o, &target, path)) {
		datadir_abandon(&r.dir);
		goto out;
	}
	r.drainer = (struct drainer){ .shm = r.shm, .dir = &r.dir };
	/* Without it the recording goes on: said, once. */
	if (file_service_open(&r.files))
		cli_error("cannot make the file service (%s): a process that changes its "
			  "user or root will not name its functions", strerror(errno));
	ret = record_program(&r, o, path, lib);
	file_service_close(&r.files);
	if (ret < 0)
		datadir_abandon(&r.dir);
	drain_free(&r.drainer);
	flight_close(&r.flight);
out:
	free(r.info.command);
	free(r.refused);
	free(path);
	free(lib);
	return ret;
}

int record_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return CLI_EXIT_SIGNAL_BASE + WTERMSIG(status);
}
