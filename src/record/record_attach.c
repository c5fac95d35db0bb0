// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace record -p PID: record a process that is already running, through
 * its control endpoint.  The process's own buffer comes over the socket as
 * an fd; while the recorder drains it, a full buffer drops new events
 * instead of overwriting old ones.  To stop, tracing_on goes to 0 first,
 * so that nothing more is written, and whatever threads wrote is taken,
 * even from chunks they still fill; then the tracer goes back to nop.
 */
#include "../dwarf/auto_args.h"
#include "../cli/cli.h"
#include "../control/ctl_client.h"
#include "../target/probe.h"
#include "../target/target.h"
#include "drain.h"
#include "flight.h"
#include "record.h"
#include "../common/clock_pair.h"
#include "../common/array.h"
#include "../common/fileio.h"
#include "../common/trace_format.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define FUNCS_EVERY 2		/* seconds between two reads of the table */

struct attached {
	const struct record_options *o;
	struct ft_shm *shm;
	struct datadir dir;
	struct drainer drainer;
	struct datadir_info info;
	char *funcs;			/* the process's table, as last read */
	size_t funcs_len;
	struct timespec funcs_read;
	uint32_t own_pid;		/* its pid in its own namespace, which
					 * /proc no longer tells once it ended */
	struct record_settings saved;	/* the process's, put back at the end */
	int detached;			/* its endpoint closed while recorded */
	struct flight flight;		/* --overwrite: the snapshots */
	struct kevents *kev;		/* -e: the kernel's events, or NULL */
	struct kev_request kev_req;	/* -e's, in the process's numbering */
};

static struct ft_shm *map_buffer(pid_t pid)
{
	struct ft_shm head, *shm;
	int status, fd;
	struct ctl_conn *c = ctl_request(pid, "read", "buffer_fd", NULL, &fd, &status);

	ctl_close(c);
	if (!c)
		return NULL;
	if (fd < 0 || pread(fd, &head, sizeof(head), 0) != sizeof(head) || !ft_shm_sane(&head)) {
		cli_error("process %d sent no usable buffer (is its fntrace another version?)", pid);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	shm = mmap(NULL, ft_shm_size(&head), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return shm == MAP_FAILED ? NULL : shm;
}

/* The modules of the process with no call sites that define a function
 * -F or a trigger names exactly, planned (src/target/detours_prep.c)
 * before the filter is written, where the runtime takes their plans; one
 * refused is said, the others traced, as record -F says it. */
static void plan_named(const struct record_options *o)
{
	if (o->filter)
		free(probe_detours_prepare_pid(o->pid, o->filter, "-F"));
	if (o->triggers)
		free(probe_detours_prepare_pid(o->pid, o->triggers, "--trigger"));
}

/*
 * The recording's settings, then the tracer.  What the buffer held from
 * before (the user's own tracing, read with ctl trace) is not of this
 * recording: with the tracer off, it is thrown away.
 */
static int configure(struct attached *a, const char *specs)
{
	const struct record_options *o = a->o;
	struct timespec settle = { 0, 10 * 1000 * 1000 };
	pid_t pid = o->pid;
	char depth[16], thresh[16];

	if (ctl_set(pid, "current_tracer", "nop"))
		return -1;
	nanosleep(&settle, NULL);	/* an event begun before is finished now */
	drain(&a->drainer, DRAIN_DISCARD);
	drain_lost_from_now(&a->drainer);
	snprintf(depth, sizeof(depth), "%u", o->depth);
	snprintf(thresh, sizeof(thresh), "%u", o->thresh);
	plan_named(o);
	return ctl_set(pid, "set_ftrace_filter", o->filter ? o->filter : "") ||
	       record_triggers_set(pid, o->triggers) ||
	       (o->snap_interval && ctl_set(pid, "snapshot_interval_ms", o->snap_interval)) ||
	       ctl_set(pid, "set_ftrace_notrace", o->notrace ? o->notrace : "") ||
	       ctl_set(pid, "max_graph_depth", depth) ||
	       ctl_set(pid, "tracing_thresh", thresh) ||
	       ctl_set(pid, "options/funcgraph-retval", o->retval ? "1" : "0") ||
	       ctl_set(pid, "set_ftrace_args", specs ? specs : "") ||
	       (o->overwrite && ctl_set(pid, "options/overwrite", "1")) ||
	       (o->overwrite && ctl_set(pid, "ftrace_dump_on_oops", "1")) ||
	       ctl_set(pid, "tracing_on", "1") ||
	       ctl_set(pid, "current_tracer", o->tracer);
}

/* The function table, as the process sends it; NULL after a line on
 * why not. */
static char *read_funcs(pid_t pid, size_t *len)
{
	int status;
	struct ctl_conn *c = ctl_request(pid, "read", "funcs", NULL, NULL, &status);
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;
	int failed;

	*len = 0;
	if (!c)
		return NULL;
	while (!grow_array((void **)&text, &cap, *len + 8192, 1) &&
	       (n = ctl_read_some(c, text + *len, cap - *len)) > 0)
		*len += n;
	failed = c->err || *len + 8192 > cap;
	if (c->err)
		ctl_say_broken(c, "funcs");
	else if (failed)
		cli_error("funcs: out of memory");
	ctl_close(c);
	if (failed) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * The table is read at the start, every few seconds and at the end: a
 * process that ends while recorded leaves the last copy, which names
 * every function but those of a module it loaded after that.
 */
static int keep_funcs(struct attached *a)
{
	size_t len;
	char *text = read_funcs(a->o->pid, &len);

	clock_gettime(CLOCK_MONOTONIC, &a->funcs_read);
	if (!text)
		return -1;
	free(a->funcs);
	a->funcs = text;
	a->funcs_len = len;
	return 0;
}

/* Its end under way, for up to END_GRACE_MS (a core dump written
 * meanwhile, qemu-user): not to be taken for a detach. */
#define END_GRACE_MS 2000

/* Gone, or detached (`fntrace detach`): either way its buffer holds the
 * last of what it wrote, and nobody is left to answer a request. */
static int over(struct attached *a)
{
	if (!a->detached && !cli_process_gone(a->o->pid) && !ctl_endpoint_exists(a->o->pid) &&
	    !cli_process_ending(a->o->pid, END_GRACE_MS))
		a->detached = 1;
	return a->detached || cli_process_gone(a->o->pid);
}

/* Until -d's time is up (to the millisecond), Ctrl-C, or the process
 * is gone. */
static void record_loop(struct attached *a)
{
	uint64_t end = a->o->duration_ns ? ft_monotonic_ns() + a->o->duration_ns : UINT64_MAX, now;
	struct timespec t;

	while (!cli_interrupted() && !over(a)) {
		uint32_t seen = atomic_load(&a->shm->published);

		drain(&a->drainer, DRAIN_FULL);
		if (a->kev)
			kev_drain(a->kev);
		drain_keep_info(&a->drainer);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - a->funcs_read.tv_sec >= FUNCS_EVERY && !over(a))
			keep_funcs(a);
		now = ft_monotonic_ns();
		if (now >= end)
			return;
		drain_wait(&a->drainer, seen, end - now < 100000000 ? (end - now + 999999) / 1000000 :
					      a->kev ? KEV_PASS_MS : 100);
	}
}

/* Nothing more written, everything written taken, the settings the
 * process had back. */
static int stop(struct attached *a)
{
	pid_t pid = a->o->pid;
	struct timespec settle = { 0, 10 * 1000 * 1000 };

	if (over(a) || ctl_set(pid, "tracing_on", "0")) {
		/* what it wrote before it went is in the buffer still */
		drain(&a->drainer, DRAIN_DEAD);
		a->info.unsaid = drain_lost_unsaid(&a->drainer);
		return over(a) ? 0 : -1;
	}
	nanosleep(&settle, NULL);	/* an event begun before is finished now */
	drain(&a->drainer, DRAIN_LIVE);
	/* A thread that lost events and wrote none after: its count is the
	 * shared total's only. */
	a->info.unsaid = drain_lost_unsaid(&a->drainer);
	return ctl_set(pid, "current_tracer", "nop") || record_settings_restore(pid, &a->saved) ||
	       ctl_set(pid, "options/overwrite", "1");
}

/* funcs-PID[.IMAGE] in dir; 1 if it was there already. */
static int write_funcs(const char *dir, uint32_t pid, uint32_t image, const char *text,
		       size_t len)
{
	char path[4200];
	int fd, ret;

	ft_funcs_path(path, sizeof(path), dir, pid, image);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		return 1;
	ret = fd < 0 || write_all(fd, text, len) ? -1 : 0;
	if (fd >= 0)
		close(fd);
	if (ret)
		cli_error("cannot write %s", path);
	return ret;
}

/* -A/-R's specs and, with --auto-args, those of the process's program's
 * DWARF: the text set_ftrace_args takes, kept in the data directory as
 * record writes them (the report names the values from them, and
 * enum values from the enums file).  -1 after one line. */
static int keep_specs(const struct attached *a, char **specs)
{
	const char *given = a->o->args ? a->o->args : "";
	char path[4200], *found = NULL, *enums = NULL;
	int ret = 0;

	*specs = NULL;
	if (a->o->auto_args && !(found = auto_args_of_process(a->o->pid, &enums)))
		return -1;
	if ((a->o->args || found) &&
	    asprintf(specs, "%s%s%s", given, *given && found ? "\n" : "", found ? found : "") < 0)
		*specs = NULL;
	free(found);
	if ((a->o->args || a->o->auto_args) && !*specs) {
		cli_error("out of memory");
		ret = -1;
	}
	snprintf(path, sizeof(path), "%s/args", a->dir.tmp);
	if (!ret && *specs && (ret = replace_file(path, *specs, strlen(*specs), 0644)))
		cli_error("cannot write %s", path);
	snprintf(path, sizeof(path), "%s/enums", a->dir.tmp);
	if (!ret && enums && (ret = replace_file(path, enums, strlen(enums), 0644)))
		cli_error("cannot write %s", path);
	free(enums);
	return ret;
}

/*
 * The process's table, and the same for each child it forked while
 * recorded: the child fills the buffer it inherited under its own pid,
 * with the parent's ids as of the fork (a module it loads after that
 * stays unnamed).
 */
static int save_funcs_in(const struct attached *a, const char *dir, const struct drainer *d)
{
	uint32_t own = a->own_pid, image = 0;
	int ret;

	for (unsigned i = 0; i < d->nr_slots; i++)
		if (d->threads[i].tid && d->threads[i].pid == own)
			image = d->threads[i].image;
	ret = write_funcs(dir, own, image, a->funcs, a->funcs_len) < 0;
	for (unsigned i = 0; i < d->nr_slots && !ret; i++)
		if (d->threads[i].tid && d->threads[i].image == image)
			ret = write_funcs(dir, d->threads[i].pid, image, a->funcs,
					  a->funcs_len) < 0;
	return ret ? -1 : 0;
}

static int save_funcs(const struct attached *a)
{
	return save_funcs_in(a, a->dir.tmp, &a->drainer);
}

/* /proc/PID/cmdline whole (its size reads as 0), its length in *len. */
static char *read_cmdline(pid_t pid, size_t *len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	return read_proc_file(path, len);
}

/* The process's command line, quoted as a recording's is ("" if it has
 * none: a zombie); NULL if out of memory. */
static char *command_of(pid_t pid)
{
	size_t len, argc = 0;
	char *text = read_cmdline(pid, &len), **argv, *command;

	for (size_t i = 0; i < len; i++)
		argc += !text[i] || i == len - 1;
	argv = calloc(argc + 1, sizeof(*argv));
	for (size_t i = 0, a = 0; argv && a < argc; i += strlen(text + i) + 1)
		argv[a++] = text + i;
	command = argv ? cli_command_line(argv, argc) : NULL;
	free(argv);
	free(text);
	return command;
}

/* A process with nothing to trace gets no recording, and one line. */
static int has_call_sites(pid_t pid)
{
	int n = ctl_has_call_sites(pid);

	if (n == 0)
		cli_error("process %d has no call sites: nothing to record (compile it with "
			  "-pg, -pg -mfentry or -fpatchable-function-entry=5)", (int)pid);
	return n > 0;
}

static int finish(struct attached *a)
{
	if (cli_process_gone(a->o->pid))
		snprintf(a->info.exit, sizeof(a->info.exit), "gone while recorded");
	else if (a->detached)
		snprintf(a->info.exit, sizeof(a->info.exit), "detached while recorded");
	else if (keep_funcs(a))
		return -1;
	ft_clock_pair(&a->info.clock.ticks[1], &a->info.clock.ns[1]);
	return save_funcs(a) || datadir_seal(&a->dir) ? -1 : 0;
}

/* A recording that did not start gives the buffer back: it overwrites
 * again, and another reader may have it. */
static void release_buffer(pid_t pid)
{
	ctl_set(pid, "options/overwrite", "1");
}

/* ---- --overwrite ---- */

/* flight.tables: the table as the process has it now, if it is there. */
static int snapshot_tables(void *arg, const char *dir, const struct drainer *d)
{
	struct attached *a = arg;

	if (!over(a))
		keep_funcs(a);
	return save_funcs_in(a, dir, d);
}

static int over_now(void *a)
{
	return over(a);
}

/* An fd the process passes along the answer to reading file; -1, said. */
static int fd_of(pid_t pid, const char *file)
{
	int fd = -1, status;

	ctl_close(ctl_request(pid, "read", file, NULL, &fd, &status));
	return fd;
}

/* The process's snapshot buffer and bell, and DIR for the snapshots;
 * a->dir stands for DIR/shared, where the specs go. */
static int start_flight(struct attached *a)
{
	int snap = fd_of(a->o->pid, "snapshot_fd");
	int bell = snap < 0 ? -1 : fd_of(a->o->pid, "snapshot_bell");

	a->info.started = time(NULL);
	ft_clock_pair(&a->info.clock.ticks[0], &a->info.clock.ns[0]);
	a->info.clock.ticks[1] = a->info.clock.ticks[0];
	a->info.clock.ns[1] = a->info.clock.ns[0];
	if (bell < 0 || flight_start_attached(&a->flight, a->o->output, a->shm, snap, bell,
					      &a->info)) {
		if (snap >= 0 && bell < 0)
			close(snap);
		return -1;
	}
	a->flight.own_pid = a->own_pid;
	if (flight_crash_watch(&a->flight))
		return -1;
	a->flight.tables = snapshot_tables;
	a->flight.tables_arg = a;
	snprintf(a->dir.tmp, sizeof(a->dir.tmp), "%s", a->flight.shared);
	snprintf(a->dir.final, sizeof(a->dir.final), "%s", a->flight.dir);
	a->dir.info = &a->info;
	return 0;
}

/*
 * The last window, then the process's settings back, overwrite on and
 * ftrace_dump_on_oops as it was (off: the program's dispositions back).
 * A process that ended is said as it ended where the kernel tells
 * (flight_gone_reason), its crash by its stamp.
 */
static int stop_flight(struct attached *a)
{
	pid_t pid = a->o->pid;
	int ended = cli_process_gone(pid);
	unsigned reason = FT_SNAP_STOPPED;

	if (ended || over(a))
		snprintf(a->info.exit, sizeof(a->info.exit), "%s while recorded",
			 ended ? "gone" : "detached");
	if (ended)
		reason = flight_gone_reason(&a->flight, a->info.exit, sizeof(a->info.exit));
	if (a->kev)
		kev_last(a->kev);
	flight_final(&a->flight, reason, ended);
	if (a->kev)
		kev_finish(a->kev);
	flight_say_summary(&a->flight);
	if (over(a))
		return 0;
	return ctl_set(pid, "current_tracer", "nop") || record_settings_restore(pid, &a->saved) ||
	       ctl_set(pid, "options/overwrite", "1");
}

static void fly(struct attached *a)
{
	uint64_t end = a->o->duration_ns ? ft_monotonic_ns() + a->o->duration_ns : 0;

	flight_watch(&a->flight, a->o->pid, end, over_now, a);
}

/* --host: the stream names the process by its comm. */
static int create_stream(struct attached *a)
{
	char path[64], comm[64] = "unknown";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)a->o->pid);
	f = fopen(path, "re");
	if (f && fgets(comm, sizeof(comm), f))
		comm[strcspn(comm, "\n")] = '\0';
	if (f)
		fclose(f);
	if (datadir_stream_create(&a->dir, a->o->host, &a->info))
		return -1;
	if (datadir_stream_begin(&a->dir, comm, a->o->pid) == 0)
		return 0;
	datadir_abandon(&a->dir);
	return -1;
}

/* Where the recording went. */
static const char *where(const struct attached *a)
{
	return a->dir.stream ? datadir_stream_where(&a->dir) : a->o->output;
}

static int record_attached(struct attached *a)
{
	const struct record_options *o = a->o;
	char ending[256], cut[192], *specs = NULL;

	/* First, while the process is surely there: once it is gone /proc
	 * no longer tells, and a table named by the pid outside its
	 * namespace would be nobody's. */
	a->own_pid = ctl_own_pid(o->pid);
	if (!has_call_sites(o->pid) || !(a->shm = map_buffer(o->pid)))
		return -1;
	if (o->overwrite ? start_flight(a) :
	    o->host ? create_stream(a) : datadir_create(&a->dir, o->output, &a->info)) {
		release_buffer(o->pid);
		return -1;
	}
	a->drainer = (struct drainer){ .shm = a->shm, .dir = &a->dir };
	/* Open before tracing starts and closed after it stops, so that
	 * every call recorded has its kernel events.  A flight recording
	 * keeps the newest of them in memory, as much as the process's ring
	 * holds of calls. */
	if (o->kevents.groups)
		a->kev = kev_start(&a->kev_req, o->pid, 0, o->overwrite ? NULL : a->dir.tmp,
				   ft_shm_size(a->shm));
	/* The windows its ring holds already are of work done before the
	 * recording (a start-up, an earlier recording's): filed from now.
	 * Not so for a program record starts: it may have said its
	 * start-up's window by the time the recorder gets here. */
	if (a->kev) {
		kev_leave_out_control(a->kev, a->shm);
		kev_own_work_from_now(a->kev);
	}
	if (keep_funcs(a) || keep_specs(a, &specs) || record_settings_save(o->pid, &a->saved) ||
	    configure(a, specs)) {
		if (a->kev)
			kev_close(a->kev);
		datadir_abandon(&a->dir);
		if (a->saved.value[0])	/* configure may have changed some */
			record_settings_restore(o->pid, &a->saved);
		release_buffer(o->pid);
		free(specs);
		return -1;
	}
	free(specs);
	cli_release_interrupts();
	if (o->overwrite) {
		a->flight.kev = a->kev;
		fly(a);
		return stop_flight(a);
	}
	record_loop(a);
	if (stop(a)) {
		if (a->kev)
			kev_close(a->kev);
		datadir_abandon(&a->dir);
		return -1;
	}
	if (a->kev)
		kev_finish(a->kev);
	if (finish(a)) {
		datadir_abandon(&a->dir);
		return -1;
	}
	if (a->dir.error)
		fprintf(stderr, "fntrace: recording stopped, %s: %s %s; "
			"%llu events dropped%s\n", datadir_ending(&a->dir, ending, sizeof(ending)),
			a->dir.stream ? "what arrived is with the listener at" : "what fit is in",
			where(a),
			(unsigned long long)a->info.dropped,
			drain_say_cut(&a->drainer, cut, sizeof(cut)));
	else
		drain_say_summary(&a->drainer, where(a));
	record_say_unmatched(a->dir.final, o, NULL, NULL);
	if (a->dir.stream)
		datadir_abandon(&a->dir);	/* the staging directory */
	return 0;
}

/* -e's system calls by the numbers the process's calls have (its
 * program's architecture: /proc/PID/exe). */
static int kevents_for(struct attached *a, pid_t pid)
{
	struct cli_target t;
	char exe[64];

	a->kev_req = a->o->kevents;
	if (!a->kev_req.groups)
		return 0;
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	return cli_target_of(exe, &t) || record_kevents_for(a->o, &t, &a->kev_req) ? -1 : 0;
}

int record_attach(const struct record_options *o)
{
	struct attached a = {
		.o = o, .dir.trace_fd = -1, .flight = { .snap_fd = -1, .bell = -1, .pidfd = -1 },
		.info = { .tracer = o->tracer, .pid = o->pid, .retval = o->retval,
			  .filter = o->filter, .notrace = o->notrace, .depth = o->depth,
			  .thresh = o->thresh, .max_size = o->max_size },
	};
	int ret;

	if (o->answer_timeout)
		ctl_timeout_ms = o->answer_timeout * 1000;
	if (cli_process_gone(o->pid)) {
		cli_error(kill(o->pid, 0) ? "no process %d" :
			  "process %d has ended (not yet reaped): nothing to record", (int)o->pid);
		return -1;
	}
	if ((!o->host && datadir_check_output(o->output)) || kevents_for(&a, o->pid) ||
	    !(a.info.command = command_of(o->pid)))
		return -1;
	kev_request_text(&o->kevents, a.info.kevents, sizeof(a.info.kevents));
	cli_hold_interrupts();
	ret = record_attached(&a);
	cli_release_interrupts();
	drain_free(&a.drainer);	/* whichever way it ended */
	flight_close(&a.flight);
	record_settings_free(&a.saved);
	free(a.info.command);
	free(a.funcs);
	return ret;
}
