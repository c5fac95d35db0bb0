// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a data directory: the info file (the funcs files are read by
 * processes.c, trace.dat indexed by trace_index.c, the events decoded by
 * trace_cursor.c).
 *
 * Every message names the file (and line) at fault, because the user's
 * only remedy is to look at that file or record again.
 */
#include "trace_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int tr_fail(struct trace_data *td, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(td->err, sizeof(td->err), fmt, ap);
	va_end(ap);
	return -1;
}

char *tr_path_in(const struct trace_data *td, const char *name)
{
	char *path;

	if (asprintf(&path, "%s/%s", td->dir, name) < 0)
		return NULL;
	return path;
}

void tr_strip_newline(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* Parses a whole unsigned number at *s, decimal or hex with 0x (never
 * octal: a pid of 010 is ten), and moves *s past it and one blank. */
int tr_take_number(char **s, uint64_t *out)
{
	int hex = (*s)[0] == '0' && ((*s)[1] == 'x' || (*s)[1] == 'X');
	char *end;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	*out = strtoull(*s, &end, hex ? 16 : 10);
	if (errno || (*end && *end != ' ' && *end != '\t'))
		return -1;
	*s = *end ? end + 1 : end;
	return 0;
}

int tr_take_u32(char **s, uint32_t *out)
{
	uint64_t v;

	if (tr_take_number(s, &v) || v > UINT32_MAX)
		return -1;
	*out = v;
	return 0;
}

/* ---- info ---- */

static int set_string(char **field, const char *value)
{
	free(*field);
	*field = strdup(value);
	return *field ? 0 : -1;
}

/* The ticks-to-ns rate as a 64.64 fixed-point number, divided out once:
 * a conversion per event is then two multiplications, not a 128-bit
 * division (which was a sixth of an export's time). */
static void set_rate(struct tr_info *info)
{
	uint64_t dt = info->clock_t1 - info->clock_t0;
	uint64_t dn = info->clock_n1 - info->clock_n0;

	if (info->clock_t1 <= info->clock_t0 || info->clock_n1 < info->clock_n0)
		return;
	info->ns_per_tick_int = dn / dt;
	info->ns_per_tick_rem = dn % dt;
	info->ns_per_tick_frac = (uint64_t)(((unsigned __int128)info->ns_per_tick_rem << 64) / dt);
}

/* A key given once per expression: its values, one per line. */
static int append_line(char **field, const char *value)
{
	char *s;

	if (asprintf(&s, "%s%s%s", *field ? *field : "", *field && **field ? "\n" : "",
		     value) < 0)
		return -1;
	free(*field);
	*field = s;
	return 0;
}

static int parse_started(struct tr_info *info, char *v)
{
	uint64_t n;

	if (tr_take_number(&v, &n) || *v || n > INT64_MAX)
		return -1;
	info->started = n;
	return 0;
}

static int parse_clock(struct tr_info *info, char *v)
{
	if (tr_take_number(&v, &info->clock_t0) || tr_take_number(&v, &info->clock_n0) ||
	    tr_take_number(&v, &info->clock_t1) || tr_take_number(&v, &info->clock_n1) || *v)
		return -1;
	info->has_clock = 1;
	set_rate(info);
	return 0;
}

static int parse_tracer(struct tr_info *info, const char *v)
{
	info->nop = !strcmp(v, "nop");
	if (info->nop)
		v = "function";
	if (strcmp(v, "function_graph") && strcmp(v, "function"))
		return -1;
	return set_string(&info->tracer, v);
}

/* "N chunks N bytes N events": what --max-size dropped. */
/* `N chunks N bytes N events`, and `N lost` if any were. */
static int parse_cut(struct tr_cut *cut, char *v)
{
	static const char *const units[] = { "chunks", "bytes", "events", "lost" };
	uint64_t *n[] = { &cut->chunks, &cut->bytes, &cut->events, &cut->lost };

	for (unsigned i = 0; i < 4 && (i < 3 || *v); i++) {
		size_t len = strlen(units[i]);

		if (tr_take_number(&v, n[i]) || strncmp(v, units[i], len) ||
		    (v[len] && v[len] != ' '))
			return -1;
		v += len + !!v[len];
	}
	return *v ? -1 : 0;
}

static int parse_state(struct tr_info *info, const char *v)
{
	if (strcmp(v, "recording") && strcmp(v, "sealed"))
		return -1;
	info->unsealed = !strcmp(v, "recording");
	return 0;
}

/* One `key: value` line; unknown keys are for newer readers. */
static int parse_info_field(struct tr_info *info, const char *key, char *v,
			    int64_t *version)
{
	uint32_t n;

	if (!strcmp(key, "fntrace-data")) {
		if (tr_take_u32(&v, &n) || *v)
			return -1;
		*version = n;
		return 0;
	}
	if (!strcmp(key, "command"))
		return set_string(&info->command, v);
	if (!strcmp(key, "tracer"))
		return parse_tracer(info, v);
	if (!strcmp(key, "pid"))
		return tr_take_u32(&v, &info->pid) || *v ? -1 : 0;
	if (!strcmp(key, "clock_sync"))
		return parse_clock(info, v);
	if (!strcmp(key, "options"))
		return set_string(&info->options, v);
	if (!strcmp(key, "filter"))
		return append_line(&info->filter, v);
	if (!strcmp(key, "notrace"))
		return append_line(&info->notrace, v);
	if (!strcmp(key, "depth"))
		return tr_take_u32(&v, &info->depth) || *v ? -1 : 0;
	if (!strcmp(key, "tracing_thresh"))
		return tr_take_u32(&v, &info->thresh) || *v ? -1 : 0;
	if (!strcmp(key, "started"))
		return parse_started(info, v);
	if (!strcmp(key, "exit"))
		return set_string(&info->exit, v);
	if (!strcmp(key, "nr_cpus"))
		return tr_take_u32(&v, &info->nr_cpus) || *v ? -1 : 0;
	if (!strcmp(key, "state"))
		return parse_state(info, v);
	if (!strcmp(key, "recording"))
		return set_string(&info->ending, v);
	if (!strcmp(key, "stream"))
		return set_string(&info->stream, v);
	if (!strcmp(key, "dropped"))
		return tr_take_number(&v, &info->dropped) || *v ? -1 : 0;
	if (!strcmp(key, "lost_unsaid"))
		return tr_take_number(&v, &info->unsaid) || *v ? -1 : 0;
	if (!strcmp(key, "max_size"))
		return tr_take_number(&v, &info->max_size) || *v ? -1 : 0;
	if (!strcmp(key, "kevents"))
		return set_string(&info->kevents, v);
	if (!strcmp(key, "max_size_dropped"))
		return parse_cut(&info->cut, v);
	if (!strcmp(key, "max_size_kept_from"))
		return tr_take_number(&v, &info->cut.kept_from) || *v ? -1 : 0;
	if (!strncmp(key, "snapshot", 8))
		return tr_snapshot_field(&info->snapshot, key, v);
	return 0;
}

static int parse_info_line(struct trace_data *td, char *line, unsigned lineno,
			   int64_t *version)
{
	char *colon = strchr(line, ':');
	char *value;

	tr_strip_newline(line);
	if (!line[strspn(line, " \t")])
		return 0;
	if (!colon)
		return tr_fail(td, "%s/info:%u: expected 'key: value'", td->dir, lineno);
	*colon = '\0';
	value = colon + 1 + strspn(colon + 1, " \t");
	if (parse_info_field(&td->info, line, value, version))
		return tr_fail(td, "%s/info:%u: bad value for %s: '%s'", td->dir,
			    lineno, line, value);
	return 0;
}

static int info_defaults(struct tr_info *info)
{
	if (!info->command && set_string(&info->command, ""))
		return -1;
	if (!info->tracer && set_string(&info->tracer, "function_graph"))
		return -1;
	if (!info->options && set_string(&info->options, ""))
		return -1;
	if (!info->filter && set_string(&info->filter, ""))
		return -1;
	if (!info->notrace && set_string(&info->notrace, ""))
		return -1;
	return 0;
}

static int read_info(struct trace_data *td)
{
	char *path = tr_path_in(td, "info"), *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int64_t version = -1;
	int err = 0;
	FILE *f = path ? fopen(path, "r") : NULL;

	if (!f) {
		if (!tr_flight_dir_fail(td))
			tr_fail(td, "%s: %s", path ? path : td->dir, strerror(errno));
		free(path);
		return -1;
	}
	while (!err && getline(&line, &cap, f) >= 0)
		err = parse_info_line(td, line, ++lineno, &version);
	free(line);
	fclose(f);
	if (!err && version < 0)
		err = tr_fail(td, "%s: not an fntrace data directory (no fntrace-data line)", path);
	else if (!err && version != 1)
		err = tr_fail(td, "%s: data format %lld; this fntrace reads format 1",
			   path, (long long)version);
	if (!err && info_defaults(&td->info))
		err = tr_fail(td, "out of memory");
	free(path);
	return err;
}

int tr_open(struct trace_data *td, const char *dir)
{
	struct stat st;

	memset(td, 0, sizeof(*td));
	td->max_cpu = TR_NO_CPU;
	td->dir = strdup(dir);
	if (!td->dir)
		return tr_fail(td, "out of memory");
	if (stat(dir, &st) < 0)
		tr_fail(td, "%s: %s", dir, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		tr_fail(td, "%s: not a directory", dir);
	if (td->err[0] || read_info(td) || tr_read_processes(td) || tr_read_trace(td) ||
	    (tr_kevents_read(dir, &td->kev) && tr_fail(td, "out of memory"))) {
		char err[sizeof(td->err)];

		memcpy(err, td->err, sizeof(err));
		tr_close(td);
		memcpy(td->err, err, sizeof(err));
		return -1;
	}
	return 0;
}

void tr_close(struct trace_data *td)
{
	struct tr_info *info = &td->info;

	for (unsigned i = 0; i < td->nr_procs; i++)
		tr_free_process(&td->procs[i]);
	free(td->procs);
	free(td->threads);
	free(td->chunks);
	free(info->command);
	free(info->tracer);
	free(info->options);
	free(info->filter);
	free(info->notrace);
	free(info->exit);
	free(info->ending);
	free(info->kevents);
	free(info->stream);
	tr_snapshot_free(&info->snapshot);
	tr_kevents_free(&td->kev);
	free(td->dir);
	tr_close_trace(td);
	memset(td, 0, sizeof(*td));
}

/* ---- queries ---- */

/* x * (n1 - n0) / (t1 - t0), rounded down as the division would: the
 * fixed-point fraction is short of the rate by less than 2^-64, so the
 * product is short by less than one and one test puts it right. */
static unsigned __int128 scale_ticks(const struct tr_info *i, uint64_t x)
{
	uint64_t dt = i->clock_t1 - i->clock_t0;
	uint64_t part = ((unsigned __int128)x * i->ns_per_tick_frac) >> 64;

	if ((unsigned __int128)(part + 1) * dt <= (unsigned __int128)x * i->ns_per_tick_rem)
		part++;
	return (unsigned __int128)x * i->ns_per_tick_int + part;
}

/* 128 bits: a tick count times a span of ns overflows 64 bits within
 * seconds, and ticks before t0 make the offset negative. */
uint64_t tr_interpolate_ns(uint64_t t0, uint64_t n0, uint64_t t1, uint64_t n1, uint64_t ticks)
{
	__int128 dt = (__int128)t1 - t0, dn = (__int128)n1 - n0, ns;

	if (!dt)
		return n0;
	ns = (__int128)n0 + ((__int128)ticks - t0) * dn / dt;
	return ns < 0 ? 0 : ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

uint64_t tr_ticks_to_ns(const struct trace_data *td, uint64_t ticks)
{
	const struct tr_info *i = &td->info;
	__int128 ns;

	if (!i->has_clock || i->clock_t1 == i->clock_t0)
		return ticks;
	if (ticks >= i->clock_t0 && (i->ns_per_tick_int | i->ns_per_tick_frac)) {
		ns = i->clock_n0 + (__int128)scale_ticks(i, ticks - i->clock_t0);
		return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
	}
	return tr_interpolate_ns(i->clock_t0, i->clock_n0, i->clock_t1, i->clock_n1, ticks);
}

uint64_t tr_kept_ns(const struct trace_data *td)
{
	const struct tr_info *i = &td->info;
	uint64_t from;

	if (!i->cut.kept_from || !i->has_clock)
		return 0;
	from = tr_ticks_to_ns(td, i->cut.kept_from);
	return i->clock_n1 > from ? i->clock_n1 - from : 0;
}

int tr_tid_chosen(const uint32_t *tids, unsigned nr, uint32_t tid)
{
	if (nr == 0)
		return 1;
	for (unsigned i = 0; i < nr; i++)
		if (tids[i] == tid)
			return 1;
	return 0;
}

const char *tr_func_name(const struct tr_process *proc, uint32_t id)
{
	return id < proc->nr_funcs ? proc->funcs[id].name : NULL;
}

int tr_has_option(const struct trace_data *td, const char *name)
{
	const char *s = td->info.options;
	size_t len = strlen(name);

	while (*s) {
		size_t n;

		s += strspn(s, " \t,");
		n = strcspn(s, ",");
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (n == len && !strncmp(s, name, len))
			return 1;
		s += strcspn(s, ",");
	}
	return 0;
}

unsigned tr_bad_chunks(const struct trace_data *td)
{
	unsigned n = 0;

	for (size_t i = 0; i < td->nr_chunks; i++)
		n += td->chunks[i].bad;
	return n;
}
