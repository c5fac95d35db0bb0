// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace ctl PID FILE [VALUE]: read or write one file of a traced
 * process's control endpoint, the way `cat` and `echo >` (or `>>` with
 * --append) use the kernel's tracefs.  trace, trace_pipe and
 * trace_stat/function come as raw data and are printed here, in the
 * kernel's formats.
 */
#include "../dwarf/auto_args.h"
#include "cli.h"
#include "../common/array.h"
#include "../common/sort.h"
#include "../control/ctl_client.h"
#include "../common/shm.h"
#include "../record/datadir.h"
#include "../target/probe.h"
#include "../trace/report.h"
#include "../common/trace_format.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: fntrace ctl [--append] [--timeout SECONDS] PID FILE [VALUE]\n"
	"       fntrace ctl [--append] --auto-args PID set_ftrace_args\n\n"
	"Read FILE of the traced process PID, or write VALUE to it (replacing,\n"
	"or adding with --append, as '>' and '>>' do).  The files are the\n"
	"kernel's tracefs files:\n\n"
	"  available_tracers  current_tracer  tracing_on  trace  trace_pipe\n"
	"  snapshot (write 1: take one; read: print it; 0: free it; 2: clear it)\n"
	"  trace_marker  available_filter_functions  enabled_functions\n"
	"  set_ftrace_filter  set_ftrace_notrace  set_graph_function\n"
	"  set_graph_notrace  max_graph_depth  buffer_size_kb\n"
	"  tracing_thresh (microseconds: only calls that long, whole)\n"
	"  function_profile_enabled  trace_stat/function\n"
	"  set_ftrace_args (record -A/-R specs: FUNC@arg1,arg2/s,retval/x)\n"
	"  ftrace_dump_on_oops (1: a crash tells whoever holds the ring which\n"
	"    signal, which thread: record -p --overwrite turns it on)\n"
	"  snapshot_interval_ms (snapshot_if_longer's least time between two)\n"
	"  tracing_max_latency (microseconds: the longest call timed so far)\n"
	"  options/overwrite  options/funcgraph-retval\n"
	"  messages (what the runtime said since it was last read)\n\n"
	"The process must have been started with 'fntrace run' (or be\n"
	"attached with 'fntrace attach').  trace_pipe streams until Ctrl-C.\n"
	"Its calls into shared libraries are listed as the library's\n"
	"functions ('malloc [libc.so.6]'), and traced when set_ftrace_filter\n"
	"names them (x86_64): an empty filter takes none of them.  A library\n"
	"built without call sites is planned for a jump at the entry of each\n"
	"function set_ftrace_filter names exactly (not by a glob) before the\n"
	"filter is written; one that cannot take the jump is said, and nothing\n"
	"is written.\n\n"
	"  -a, --append            add to the file instead of replacing it\n"
	"      --auto-args         write set_ftrace_args the specs record\n"
	"                          --auto-args takes from the DWARF of the\n"
	"                          process's program (built with -g)\n"
	"  -t, --timeout SECONDS   give up on a process that does not answer\n"
	"                          (a stopped one) within SECONDS (default 5);\n"
	"                          one that runs is waited for, up to 120 s\n"
	"  -h, --help              this text\n\n"
	"example: fntrace ctl 4242 set_ftrace_filter 'parse_*'\n"
	"         fntrace ctl --append 4242 set_ftrace_filter :mod:libc\n"
	"         fntrace ctl 4242 current_tracer function_graph\n"
	"         fntrace ctl 4242 snapshot 1; fntrace ctl 4242 snapshot\n\n"
	CLI_EXIT_HELP;

/* A data directory being filled from a trace stream. */
struct stream_dir {
	char dir[4096];
	int trace_fd;
	int preamble_done;
	int swapped;		/* the chunks are in the other byte order */
};

static int write_file(const char *dir, const char *name, struct ctl_conn *c, size_t len)
{
	char path[4200], buf[8192];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	while (len && !ret) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);

		ret = ctl_read_exact(c, buf, n) || write(fd, buf, n) != (ssize_t)n;
		len -= n;
	}
	close(fd);
	return ret ? -1 : 0;
}

static int start_trace_file(struct stream_dir *d)
{
	struct ft_file_header h = { .version = FT_VERSION, .word_order = FT_WORD_ORDER };
	char path[4200];

	memcpy(h.magic, FT_FILE_MAGIC, sizeof(h.magic));
	snprintf(path, sizeof(path), "%s/trace.dat", d->dir);
	if (d->trace_fd >= 0)
		close(d->trace_fd);
	d->trace_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	return d->trace_fd < 0 || write(d->trace_fd, &h, sizeof(h)) != sizeof(h) ? -1 : 0;
}

/* A chunk as the stream sends it (a struct ft_chunk and its events), into
 * trace.dat in our byte order. */
static int copy_chunk(struct stream_dir *d, struct ctl_conn *c, size_t len)
{
	uint32_t *buf = len >= sizeof(struct ft_chunk) ? malloc(len) : NULL;
	struct ft_chunk *head = (struct ft_chunk *)buf;
	int ret = !buf || ctl_read_exact(c, buf, len);

	if (!ret && d->swapped) {
		uint32_t *events = buf + sizeof(*head) / 4;

		ft_chunk_swap(head, events, (len - sizeof(*head)) & ~(size_t)3, head, events);
	}
	if (!ret)
		ret = write(d->trace_fd, buf, len) != (ssize_t)len;
	free(buf);
	return ret ? -1 : 0;
}

/* "fntrace-stream 1 ORDER": the version, and the byte order of the chunks
 * (le or be; absent from runtimes older than the order's mention). */
static int stream_start(struct stream_dir *d, const char *line)
{
	const char *ours = FT_BIG_ENDIAN ? "be" : "le";
	char order[8] = "";

	if (sscanf(line, "fntrace-stream 1 %7s", order) < 1 && strcmp(line, "fntrace-stream 1"))
		return -1;
	d->swapped = *order && strcmp(order, ours) != 0;
	return 0;
}

/* One section of the stream; 1 after "end", 2 after "sync" (trace_pipe:
 * what came so far is whole), -1 if malformed. */
static int read_section(struct stream_dir *d, struct ctl_conn *c)
{
	char line[256], name[64];
	unsigned pid, image;
	size_t len;

	if (ctl_read_line(c, line, sizeof(line)))
		return -1;
	if (!strcmp(line, "end"))
		return 1;
	if (!strcmp(line, "sync"))
		return 2;
	if (!strncmp(line, "fntrace-stream ", 15))
		return stream_start(d, line);
	if (sscanf(line, "info %zu", &len) == 1)
		return write_file(d->dir, "info", c, len);
	if (sscanf(line, "args %zu", &len) == 1)
		return write_file(d->dir, "args", c, len);
	image = 0;
	if (sscanf(line, "funcs %u.%u %zu", &pid, &image, &len) == 3 ||
	    sscanf(line, "funcs %u %zu", &pid, &len) == 2) {
		ft_funcs_path(name, sizeof(name), NULL, pid, image);
		return write_file(d->dir, name, c, len);
	}
	if (sscanf(line, "chunk %zu", &len) == 1 && len < (1u << 24))
		return copy_chunk(d, c, len);
	return -1;
}

static void remove_stream_dir(struct stream_dir *d)
{
	if (d->trace_fd >= 0)
		close(d->trace_fd);
	datadir_remove(d->dir);
}

static int make_stream_dir(struct stream_dir *d)
{
	d->trace_fd = -1;
	if (cli_make_temp_dir(d->dir, sizeof(d->dir), "fntrace-ctl"))
		return -1;
	if (start_trace_file(d)) {
		cli_error("cannot make a trace file in %s: %s", d->dir, strerror(errno));
		remove_stream_dir(d);
		return -1;
	}
	return 0;
}

/* The stream of file (trace, snapshot), printed as the report prints a
 * recording; first: its first line, if read already. */
static int show_trace(struct ctl_conn *c, const char *file, const char *first)
{
	struct report_options o = { .live = 1 };
	struct stream_dir d;
	int ret, end = 0;

	if (make_stream_dir(&d))
		return 1;
	ret = first ? stream_start(&d, first) : 0;
	while (ret == 0 && (ret = read_section(&d, c)) == 0)
		;
	end = ret == 1;
	ret = end ? report_run(d.dir, stdout, &o) : 1;
	if (!end && c->err)
		ctl_say_broken(c, file);
	else if (!end)
		cli_error("%s: the process sent a malformed trace", file);
	remove_stream_dir(&d);
	return ret;
}

static uint64_t ms_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Print what came since the last part. */
static int print_part(struct stream_dir *d, struct report_options *o)
{
	int ret;

	fflush(stdout);
	ret = report_run(d->dir, stdout, o) || start_trace_file(d);
	o->no_header = 1;
	return ret;
}

/*
 * trace_pipe: events are printed in parts, each as soon as the stream
 * pauses or, while it flows on, every PART_MS at a point where what came
 * is whole; the graph's open frames carry over from one part to the next.
 * Ctrl-C (or SIGTERM) ends it at once, in the middle of a part too.
 */
#define PART_MS 100

static int show_pipe(struct ctl_conn *c)
{
	struct report_carry carry = { 0 };
	struct report_options o = { .live = 1, .carry = &carry, .stopped = cli_interrupted };
	struct stream_dir d;
	int ret = 0, pending = 0;
	uint64_t part_start = 0;

	/* Ctrl-C ends the stream: caught before there is a directory to
	 * remove, so that it never stays behind. */
	cli_catch_interrupt();
	if (make_stream_dir(&d))
		return 1;
	while (!ret && !cli_interrupted()) {
		int ready = ctl_wait(c, pending ? PART_MS : 1000), got = 0;

		if (ready > 0 && (got = read_section(&d, c)) < 0)
			ret = 1;
		if (ready > 0 && !pending)
			part_start = ms_now();
		pending |= ready > 0;
		if (pending && (ready == 0 || (got == 2 && ms_now() - part_start >= PART_MS))) {
			ret = print_part(&d, &o);
			pending = 0;
		} else if (ready < 0) {
			break;
		}
		fflush(stdout);
	}
	remove_stream_dir(&d);
	report_carry_free(&carry);
	if (cli_interrupted())
		cli_drop_untaken_output();
	if (ret && !cli_interrupted()) {
		ctl_say_broken(c, "trace_pipe");
		return 1;
	}
	return 0;
}

static void print_duration(double us)
{
	char num[32];

	snprintf(num, sizeof(num), "%.3f us", us);
	printf("    %-14s", num);
}

/* trace_stat/function, as the kernel prints it: by total time.  The
 * process sends each function's hits, total time and s^2 (ns^2). */
struct stat_row {
	char name[256];
	unsigned long long hits, time_ns, var_ns2;
};

static int by_time(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;

	return x->time_ns < y->time_ns ? 1 : x->time_ns > y->time_ns ? -1 : strcmp(x->name, y->name);
}

static void print_stat_row(const struct stat_row *r)
{
	double n = r->hits, sum = r->time_ns / 1000.0;

	printf("  %-30.30s  %10llu", r->name, r->hits);
	print_duration(sum);
	print_duration(sum / n);
	print_duration(r->var_ns2 / 1e6);
	printf("\n");
}

static int show_profile(struct ctl_conn *c)
{
	struct stat_row *rows = NULL;
	size_t n = 0;
	char line[512];

	while (ctl_read_line(c, line, sizeof(line)) == 0) {
		struct stat_row *r = realloc(rows, (n + 1) * sizeof(*rows));

		if (!r)
			break;
		rows = r;
		if (sscanf(line, "%255[^\t]\t%llu\t%llu\t%llu", rows[n].name, &rows[n].hits,
			   &rows[n].time_ns, &rows[n].var_ns2) == 4)
			n++;
	}
	sort_array(rows, n, sizeof(*rows), by_time);
	printf("  Function                               Hit    Time            Avg             s^2\n"
	       "  --------                               ---    ----            ---             ---\n");
	for (size_t i = 0; i < n; i++)
		print_stat_row(&rows[i]);
	free(rows);
	return 0;
}

/* The whole answer first, then stdout: a pager reading slowly must not
 * keep the process's one control thread. */
static int copy_out(struct ctl_conn *c, const char *file)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t n;

	do {
		if (grow_array((void **)&buf, &cap, len + 1, 1)) {
			free(buf);
			cli_error("%s: out of memory for the answer", file);
			return 1;
		}
		n = ctl_read_some(c, buf + len, cap - len);
		len += n > 0 ? n : 0;
	} while (n > 0);
	fwrite(buf, 1, len, stdout);
	free(buf);
	if (c->err)
		ctl_say_broken(c, file);
	return c->err ? 1 : 0;
}

/* snapshot: a trace stream, or the kernel's lines saying there is no
 * snapshot buffer. */
static int show_snapshot(struct ctl_conn *c)
{
	char line[256];

	if (ctl_read_line(c, line, sizeof(line))) {
		ctl_say_broken(c, "snapshot");
		return 1;
	}
	if (!strncmp(line, "fntrace-stream ", 15))
		return show_trace(c, "snapshot", line);
	printf("%s\n", line);
	return copy_out(c, "snapshot");
}

/* --auto-args: the specs of pid's program, for set_ftrace_args; NULL
 * after one line. */
static char *auto_value(pid_t pid)
{
	char *enums, *specs = auto_args_of_process(pid, &enums);

	free(enums);
	return specs;
}

/* A function of a library built without call sites, named live: its
 * module planned first (detours_prep.c), where the runtime looks again
 * when the filter is written.  1 if one named cannot be traced (said):
 * then nothing is written. */
static int refused(pid_t pid, const char *file, const char *value)
{
	char *said;

	if (strcmp(file, "set_ftrace_filter"))
		return 0;
	said = probe_detours_prepare_pid(pid, value, file);
	free(said);
	return said != NULL;
}

/* PID FILE [VALUE] (--auto-args: no VALUE): 0, or 1 after a usage error. */
static int operands_wrong(int n, int autoargs)
{
	if (n == 0)
		cli_usage_error("no process id given");
	else if (n == 1)
		cli_usage_error("no control file given (current_tracer, trace, ...)");
	else if (n > 3 - autoargs)
		cli_usage_error(autoargs ? "--auto-args writes set_ftrace_args: no VALUE"
					 : "one value only (quote a value with blanks)");
	return n < 2 || n > 3 - autoargs;
}

int cmd_ctl(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "append", no_argument, NULL, 'a' },
		{ "auto-args", no_argument, NULL, 'A' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct ctl_conn *conn;
	int c, append = 0, autoargs = 0, status, ret;
	unsigned seconds = 5;
	const char *file;
	char *value = NULL;
	pid_t pid;

	optind = 1;
	while ((c = cli_getopt(argc, argv, "at:h", opts)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		}
		if (c == '?' || (c == 't' && cli_parse_seconds(optarg, &seconds)))
			return CLI_EXIT_USAGE;
		append |= c == 'a';
		autoargs |= c == 'A';
	}
	ctl_timeout_ms = seconds * 1000;
	if (operands_wrong(argc - optind, autoargs) || cli_parse_pid(argv[optind], &pid))
		return CLI_EXIT_USAGE;
	file = argv[optind + 1];
	if (autoargs && strcmp(file, "set_ftrace_args"))
		return cli_usage_error("--auto-args writes set_ftrace_args, not %s", file);
	if (autoargs && !(value = auto_value(pid)))
		return CLI_EXIT_FAILED;
	if (argc - optind == 3)
		value = argv[optind + 2];
	if (value && !autoargs && refused(pid, file, value))
		return CLI_EXIT_FAILED;
	conn = ctl_request(pid, value ? (append ? "append" : "write") : "read",
			   file, value, NULL, &status);
	if (autoargs)
		free(value);
	if (!conn)
		return status;
	if (autoargs || argc - optind == 3)
		ret = 0;
	else if (!strcmp(file, "trace"))
		ret = show_trace(conn, "trace", NULL);
	else if (!strcmp(file, "snapshot"))
		ret = show_snapshot(conn);
	else if (!strcmp(file, "trace_pipe"))
		ret = show_pipe(conn);
	else if (!strcmp(file, "trace_stat/function"))
		ret = show_profile(conn);
	else
		ret = copy_out(conn, file);
	ctl_close(conn);
	return ret ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}
