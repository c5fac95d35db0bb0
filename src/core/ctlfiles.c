// SPDX-License-Identifier: GPL-2.0
/*
 * The files of the control endpoint, with the kernel's tracefs meanings.
 * Values arrive as `echo` writes them: trailing white space is dropped.
 * A write the kernel would refuse changes nothing and says why.
 */
#include "args.h"
#include "buffer.h"
#include "../common/trace_format.h"
#include "control.h"
#include "crash.h"
#include "ftrace.h"
#include "lock.h"
#include "messages.h"
#include "profile.h"
#include "readout.h"
#include "snapshot_ctl.h"
#include "tracers.h"
#include "tracing.h"
#include "triggers.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>

/* The value without surrounding white space, in a copy. */
static char *trimmed(const char *value)
{
	size_t start = strspn(value, " \t\n"), len = strlen(value + start);
	char *s;

	while (len && strchr(" \t\n", value[start + len - 1]))
		len--;
	s = malloc(len + 1);
	if (s) {
		memcpy(s, value + start, len);
		s[len] = '\0';
	}
	return s;
}

/* A decimal from 0 to max, as the kernel's kstrtoul takes it: digits
 * after an optional '+'; not a negative one, which strtoul would wrap,
 * nor one past its range, which it would clamp to a value a 32-bit
 * runtime might accept. */
static int parse_number(const char *value, unsigned max, unsigned *out,
			char *err, size_t errlen)
{
	char *v = trimmed(value), *end = NULL;
	unsigned long n = 0;
	int ok = 0;

	if (v && (isdigit((unsigned char)*v) || *v == '+')) {
		errno = 0;
		n = strtoul(v, &end, 10);
		ok = !*end && errno != ERANGE && n <= max;
	}
	if (ok)
		*out = n;
	else
		snprintf(err, errlen, "not a number from 0 to %u: '%s'", max, v ? v : "");
	free(v);
	return ok ? 0 : -1;
}

static const char *module_name(const struct ftrace_rec *rec)
{
	return ftrace_module_get(rec->module)->name;
}

/* "name" for the main program's functions, "name [module]" for others,
 * as the kernel names functions of modules. */
static void print_function(struct ctl_out *o, const struct ftrace_rec *rec)
{
	if (rec->module == 0)
		ctl_printf(o, "%s", rec->name);
	else
		ctl_printf(o, "%s [%s]", rec->name, module_name(rec));
}

static int read_tracers(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%s\n", ft_tracers_available());
	return 0;
}

/* Longer than a line of ctl_printf()'s where many threads block SIGTRAP. */
static int read_traps_unblocked(struct ctl_out *o, int arg)
{
	const char *list = ft_traps_unblocked();

	ctl_write(o, "ok\n", 3);
	ctl_write(o, list, strlen(list));
	ctl_write(o, "\n", 1);
	return 0;
}

static int read_tracer(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%s\n", ft_tracer_name());
	return 0;
}

static int write_tracer(const char *value, int append, int arg, char *err, size_t errlen)
{
	char *name = trimmed(value);
	int ret = -1;

	ftrace_lock();
	if (name && strcmp(name, ft_tracer_name()))
		ret = ft_tracer_set(name, err, errlen);
	else
		ret = name ? 0 : -1;
	ftrace_unlock();
	/* Another tracer starts with an empty buffer, as in the kernel. */
	if (ret == 0)
		ft_readout_clear("", 0, 0, err, errlen);
	free(name);
	return ret;
}

/* Tracing switched off for good (an internal fault) reads 0, and cannot
 * be switched on again. */
static int read_tracing_on(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%d\n", ft_tracing_on && !ftrace_killed());
	return 0;
}

static int write_tracing_on(const char *value, int append, int arg, char *err, size_t errlen)
{
	unsigned on;

	if (parse_number(value, 1, &on, err, errlen))
		return -1;
	if (on && ftrace_killed()) {
		ft_update_failed(err, errlen, "cannot switch tracing on");
		return -1;
	}
	ft_tracing_on = on;
	return 0;
}

static int read_available(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n");
	ftrace_lock();
	for (uint32_t id = 1; id <= ftrace_rec_count(); id++) {
		const struct ftrace_rec *rec = ftrace_rec_get(id);

		if (rec->flags & FTRACE_FL_DISABLED)
			continue;
		print_function(o, rec);
		ctl_printf(o, "\n");
	}
	ftrace_unlock();
	return 0;
}

static int read_enabled(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n");
	ftrace_lock();
	for (uint32_t id = 1; id <= ftrace_rec_count(); id++) {
		const struct ftrace_rec *rec = ftrace_rec_get(id);

		if (!(rec->flags & FTRACE_FL_ENABLED) || (rec->flags & FTRACE_FL_DISABLED))
			continue;
		print_function(o, rec);
		ctl_printf(o, " (%u)\n", ftrace_rec_refs(rec, id));
	}
	ftrace_unlock();
	return 0;
}

/* What a filter file holds: the functions it selects, and expressions
 * for modules not loaded yet. */
static void print_filter(struct ctl_out *o, enum ft_filter_file which)
{
	const struct filter *f = ft_filter_get(which);

	if (f->nr_add == 0 && (which == FT_FILTER || which == FT_GRAPH_FUNCTION)) {
		ctl_printf(o, "#### all functions enabled ####\n");
		return;
	}
	for (uint32_t id = 1; id <= ftrace_rec_count(); id++) {
		const struct ftrace_rec *rec = ftrace_rec_get(id);

		if (!(rec->flags & FTRACE_FL_DISABLED) &&
		    ft_filter_selects(which, rec, module_name(rec))) {
			print_function(o, rec);
			ctl_printf(o, "\n");
		}
	}
	for (unsigned i = 0; i < f->nr; i++)
		if (f->v[i].module && !f->v[i].remove)
			ctl_printf(o, "%s\n", f->v[i].text);
}

/* set_ftrace_filter lists its triggers after the filter, as the kernel
 * lists its probes. */
static int read_filter_file(struct ctl_out *o, int which)
{
	ctl_printf(o, "ok\n");
	ftrace_lock();
	print_filter(o, which);
	if (which == FT_FILTER)
		ft_triggers_show(o, print_function);
	ftrace_unlock();
	return 0;
}

static int write_filter_file(const char *value, int append, int which,
			     char *err, size_t errlen)
{
	int ret;

	ftrace_lock();
	/* A library's function named live: fntrace ctl planned it just now. */
	if (which == FT_FILTER && ftrace_modules_take_plans())
		ft_warn("cannot take the detours planned since a module was read");
	ret = ft_filter_write(which, value, append, err, errlen);
	ftrace_unlock();
	return ret;
}

static void write_out(void *o, const char *text, size_t len)
{
	ctl_write(o, text, len);
}

static int read_args(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n");
	ftrace_lock();
	ft_args_emit(write_out, o);
	ftrace_unlock();
	return 0;
}

static int write_args(const char *value, int append, int arg, char *err, size_t errlen)
{
	int ret;

	ftrace_lock();
	ret = ft_args_write(value, append, err, errlen);
	ftrace_unlock();
	return ret;
}

static int read_depth(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%u\n", ft_graph.max_depth);
	return 0;
}

static int write_depth(const char *value, int append, int arg, char *err, size_t errlen)
{
	unsigned depth;

	if (parse_number(value, 1u << 20, &depth, err, errlen))
		return -1;
	ft_graph_set_depth(depth);
	return 0;
}

static int read_thresh(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%u\n", ft_graph_thresh());
	return 0;
}

/* Microseconds, as the kernel's; 0 switches it off. */
static int write_thresh(const char *value, int append, int arg, char *err, size_t errlen)
{
	unsigned us;

	if (parse_number(value, UINT_MAX, &us, err, errlen))
		return -1;
	ft_graph_set_thresh(us);
	return 0;
}

static int read_interval(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%u\n", ft_trigger_interval_ms());
	return 0;
}

/* The least time between two snapshots of the duration triggers, in
 * milliseconds (an hour at most); 0: none. */
static int write_interval(const char *value, int append, int arg, char *err, size_t errlen)
{
	unsigned ms;

	if (parse_number(value, 3600000, &ms, err, errlen))
		return -1;
	ft_trigger_set_interval_ms(ms);
	return 0;
}

static int read_max_latency(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%llu\n", (unsigned long long)ft_trigger_max_latency_us());
	return 0;
}

/* Microseconds, as the kernel's: 0 resets it, another value is the one
 * a call must beat. */
static int write_max_latency(const char *value, int append, int arg, char *err, size_t errlen)
{
	unsigned us;

	if (parse_number(value, UINT_MAX, &us, err, errlen))
		return -1;
	ft_trigger_set_max_latency_us(us);
	return 0;
}

static int read_buffer_size(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%u\n", ft_buffer_size_kb());
	return 0;
}

/* The size of the process's own buffer, made when a tracer starts. */
static int write_buffer_size(const char *value, int append, int arg, char *err, size_t errlen)
{
	unsigned kb;

	if (parse_number(value, 1u << 22, &kb, err, errlen))
		return -1;
	if (kb == 0) {
		snprintf(err, errlen, "a buffer of 0 KB holds nothing");
		return -1;
	}
	if (ft_buffer_set_size(kb)) {
		snprintf(err, errlen, "the buffer exists already: size it before the first tracer starts");
		return -1;
	}
	return 0;
}

static int write_marker(const char *value, int append, int arg, char *err, size_t errlen)
{
	if (ft_marker_write(value, strlen(value)) == 0)
		return 0;
	snprintf(err, errlen, "no trace buffer: start a tracer first");
	return -1;
}

static int read_profile_enabled(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%d\n", ft_profile_enabled());
	return 0;
}

static int write_profile_enabled(const char *value, int append, int arg, char *err, size_t errlen)
{
	unsigned on;
	int ret;

	if (parse_number(value, 1, &on, err, errlen))
		return -1;
	ftrace_lock();
	ret = ft_profile_set(on, err, errlen);
	ftrace_unlock();
	return ret;
}

/*
 * One consuming reader at a time, as the kernel's trace_pipe has: two
 * readers draining one buffer would each hold part of the trace and
 * neither would know.  The buffer is drained while overwrite is off (a
 * recorder's: record -p's, named here by its pid, or the fntrace record
 * that started the process, pid 0); a recorder that died without putting
 * overwrite back is gone for good.
 */
static pid_t recorder_pid;

static int drained_by_other(pid_t asking)
{
	struct ft_shm *shm = ft_buffer_shm();

	if (!shm || (atomic_load(&shm->flags) & FT_SHM_OVERWRITE))
		return 0;
	if (recorder_pid && recorder_pid != asking && kill(recorder_pid, 0) && errno == ESRCH)
		return 0;
	return recorder_pid != asking || !asking;
}

/* The trace_pipe reader streaming now, if one is. */
static int pipe_streaming;
static pid_t pipe_reader;

/* Refused, said in the answer, while another reader consumes. */
int ft_ctl_busy(struct ctl_out *o)
{
	if (pipe_streaming) {
		ctl_printf(o, "error %d read by trace_pipe (pid %d): one reader at a time\n",
			   EBUSY, (int)pipe_reader);
		return -1;
	}
	if (!drained_by_other(ctl_peer_pid(o->fd)))
		return 0;
	if (recorder_pid)
		ctl_printf(o, "error %d recorded by fntrace record -p (pid %d): one reader at a time\n",
			   EBUSY, (int)recorder_pid);
	else
		ctl_printf(o, "error %d recorded by the fntrace record that started it: "
			   "one reader at a time\n", EBUSY);
	return -1;
}

int ft_ctl_pipe_claim(struct ctl_out *o)
{
	if (ft_ctl_busy(o))
		return -1;
	pipe_streaming = 1;
	pipe_reader = ctl_peer_pid(o->fd);
	return 0;
}

void ft_ctl_pipe_release(void)
{
	pipe_streaming = 0;
}

/* For a recorder attaching (record -p): the buffer's fd, passed along the
 * answer; from now on a full buffer drops new events, it no longer
 * overwrites, since the recorder drains it. */
static int read_buffer_fd(struct ctl_out *o, int arg)
{
	if (ft_ctl_busy(o) || ft_snapshot_busy(o))
		return -1;
	ftrace_lock();
	if (ft_buffer_create()) {
		ftrace_unlock();
		ctl_printf(o, "error %d cannot make a trace buffer\n", ENOMEM);
		return -1;
	}
	atomic_fetch_and(&ft_buffer_shm()->flags, ~FT_SHM_OVERWRITE);
	ftrace_unlock();
	recorder_pid = ctl_peer_pid(o->fd);
	o->send_fd = ft_buffer_fd();
	if (o->send_fd < 0) {
		ctl_printf(o, "error %d the trace buffer's descriptor was closed\n", EBADF);
		return -1;
	}
	ctl_printf(o, "ok\n");
	return 0;
}

static int read_overwrite(struct ctl_out *o, int arg)
{
	struct ft_shm *shm = ft_buffer_shm();

	ctl_printf(o, "ok\n%d\n", !shm || (atomic_load(&shm->flags) & FT_SHM_OVERWRITE));
	return 0;
}

static int write_overwrite(const char *value, int append, int arg, char *err, size_t errlen)
{
	struct ft_shm *shm = ft_buffer_shm();
	unsigned on;

	if (parse_number(value, 1, &on, err, errlen))
		return -1;
	if (shm && on)
		atomic_fetch_or(&shm->flags, FT_SHM_OVERWRITE);
	else if (shm)
		atomic_fetch_and(&shm->flags, ~FT_SHM_OVERWRITE);
	return 0;
}

static int read_retval(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n%d\n", ft_graph.retval);
	return 0;
}

static int write_retval(const char *value, int append, int arg, char *err, size_t errlen)
{
	unsigned on;

	if (parse_number(value, 1, &on, err, errlen))
		return -1;
	ft_graph_set_retval(on);
	return 0;
}

/* fntrace detach: every site as the compiler left it, the endpoint closed. */
static int write_detach(const char *value, int append, int arg, char *err, size_t errlen)
{
	int ret;

	/* The tracer and the profiler off as a user would switch them, so
	 * that an attach later starts from nothing. */
	ret = ft_tracer_set("nop", err, errlen) || ft_profile_set(0, err, errlen);
	ftrace_lock();
	ret = ret ? ret : ft_triggers_clear() || ftrace_detach();
	ftrace_unlock();
	if (ret) {
		snprintf(err, errlen, "cannot restore the call sites");
		return -1;
	}
	ft_control_stop_after_request();
	ft_snapshot_ring_bell();	/* a recorder waiting sees the end */
	return 0;
}

static const struct ctl_file files[] = {
	{ "available_tracers", read_tracers, NULL, 0 },
	{ "current_tracer", read_tracer, write_tracer, 0 },
	{ "tracing_on", read_tracing_on, write_tracing_on, 0 },
	{ "available_filter_functions", read_available, NULL, 0 },
	{ "enabled_functions", read_enabled, NULL, 0 },
	{ "set_ftrace_filter", read_filter_file, write_filter_file, FT_FILTER },
	{ "set_ftrace_notrace", read_filter_file, write_filter_file, FT_NOTRACE },
	{ "set_graph_function", read_filter_file, write_filter_file, FT_GRAPH_FUNCTION },
	{ "set_graph_notrace", read_filter_file, write_filter_file, FT_GRAPH_NOTRACE },
	{ "set_ftrace_args", read_args, write_args, 0 },
	{ "max_graph_depth", read_depth, write_depth, 0 },
	{ "tracing_thresh", read_thresh, write_thresh, 0 },
	{ "buffer_size_kb", read_buffer_size, write_buffer_size, 0 },
	{ "trace", ft_readout_trace, ft_readout_clear, 0 },
	{ "trace_pipe", ft_readout_pipe, NULL, 0 },
	{ "snapshot", ft_snapshot_read, ft_snapshot_write, 0 },
	{ "snapshot_interval_ms", read_interval, write_interval, 0 },
	{ "tracing_max_latency", read_max_latency, write_max_latency, 0 },
	{ "trace_marker", NULL, write_marker, 0 },
	{ "function_profile_enabled", read_profile_enabled, write_profile_enabled, 0 },
	{ "trace_stat/function", ft_readout_profile, NULL, 0 },
	{ "options/overwrite", read_overwrite, write_overwrite, 0 },
	{ "options/funcgraph-retval", read_retval, write_retval, 0 },
	{ "buffer_fd", read_buffer_fd, NULL, 0 },
	{ "snapshot_fd", ft_snapshot_read_fd, NULL, 0 },
	{ "snapshot_bell", ft_snapshot_read_bell, NULL, 0 },
	{ "ftrace_dump_on_oops", ft_crash_read, ft_crash_write, 0 },
	{ "funcs", ft_readout_funcs, NULL, 0 },
	{ "detach", NULL, write_detach, 0 },
	{ "traps_unblocked", read_traps_unblocked, NULL, 0 },
	{ "messages", ft_messages_read, NULL, 0 },
};

const struct ctl_file *ctl_file_find(const char *name)
{
	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!strcmp(files[i].name, name))
			return &files[i];
	return NULL;
}
