// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace record -p PID: record a process that is already running, through
 * its control endpoint.  The process's own buffer comes over the socket as
 * an fd; while the recorder drains it, a full buffer drops new events
 * instead of overwriting old ones.  To stop, tracing_on goes to 0 first,
 * so that nothing more is written, and whatever threads wrote is taken,
 * even from chunks they still fill; then the tracer goes back to nop.
 */
#include "cli.h"
#include "ctl_client.h"
#include "drain.h"
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct attached {
	const struct record_options *o;
	struct ft_shm *shm;
	struct datadir dir;
	struct drainer drainer;
	struct datadir_info info;
};

static struct ft_shm *map_buffer(pid_t pid)
{
	struct ft_shm head, *shm;
	int status, fd;
	struct ctl_conn *c = ctl_request(pid, "read", "buffer_fd", NULL, &fd, &status);

	ctl_close(c);
	if (!c)
		return NULL;
	if (fd < 0 || pread(fd, &head, sizeof(head), 0) != sizeof(head) ||
	    memcmp(head.magic, FT_SHM_MAGIC, sizeof(head.magic))) {
		cli_error("process %d sent no usable buffer", pid);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	shm = mmap(NULL, ft_shm_size(&head), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return shm == MAP_FAILED ? NULL : shm;
}

/* The recording's settings, then the tracer: a new tracer starts with an
 * empty buffer. */
static int configure(pid_t pid, const struct record_options *o)
{
	char depth[16];

	snprintf(depth, sizeof(depth), "%u", o->depth);
	return ctl_set(pid, "current_tracer", "nop") ||
	       ctl_set(pid, "set_ftrace_filter", o->filter ? o->filter : "") ||
	       ctl_set(pid, "set_ftrace_notrace", o->notrace ? o->notrace : "") ||
	       ctl_set(pid, "max_graph_depth", depth) ||
	       ctl_set(pid, "options/funcgraph-retval", o->retval ? "1" : "0") ||
	       ctl_set(pid, "tracing_on", "1") ||
	       ctl_set(pid, "current_tracer", o->tracer);
}

static int gone(pid_t pid)
{
	return kill(pid, 0) && errno == ESRCH;
}

static void record_loop(struct attached *a)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	cli_catch_interrupt();
	while (!cli_interrupted() && !gone(a->o->pid)) {
		uint32_t seen = atomic_load(&a->shm->published);

		drain(&a->drainer, DRAIN_FULL);
		drain_keep_info(&a->drainer);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (a->o->duration && now.tv_sec - start.tv_sec >= (time_t)a->o->duration)
			return;
		drain_wait(&a->drainer, seen, 100);
	}
}

/* Nothing more written, everything written taken, the tracer off. */
static int stop(struct attached *a)
{
	pid_t pid = a->o->pid;
	struct timespec settle = { 0, 10 * 1000 * 1000 };

	if (gone(pid)) {
		drain(&a->drainer, DRAIN_DEAD);
		return 0;
	}
	if (ctl_set(pid, "tracing_on", "0"))
		return -1;
	nanosleep(&settle, NULL);	/* an event begun before is finished now */
	drain(&a->drainer, DRAIN_LIVE);
	return ctl_set(pid, "current_tracer", "nop") || ctl_set(pid, "tracing_on", "1") ||
	       ctl_set(pid, "options/overwrite", "1");
}

static int save_funcs(const struct attached *a)
{
	char path[4200], buf[8192];
	int status, fd, ret = 0;
	struct ctl_conn *c = ctl_request(a->o->pid, "read", "funcs", NULL, NULL, &status);
	ssize_t n;

	if (!c)
		return -1;
	snprintf(path, sizeof(path), "%s/funcs-%ld", a->dir.tmp, ctl_own_pid(a->o->pid));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	while (fd >= 0 && !ret && (n = ctl_read_some(c, buf, sizeof(buf))) > 0)
		ret = write(fd, buf, n) != n;
	ctl_close(c);
	if (fd < 0 || ret)
		cli_error("cannot write %s", path);
	if (fd >= 0)
		close(fd);
	return fd < 0 || ret ? -1 : 0;
}

/* The process's command line, spaces between its arguments. */
static void command_of(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	f = fopen(path, "re");
	n = f ? fread(buf, 1, len - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	for (size_t i = 0; n && i < n - 1; i++)
		if (!buf[i])
			buf[i] = ' ';
}

static int finish(struct attached *a)
{
	command_of(a->o->pid, a->info.command, sizeof(a->info.command));
	if (gone(a->o->pid))
		snprintf(a->info.exit, sizeof(a->info.exit), "gone while recorded");
	clock_sample(&a->info.clock.ticks[1], &a->info.clock.ns[1]);
	return save_funcs(a) || datadir_seal(&a->dir) ? -1 : 0;
}

int record_attach(const struct record_options *o)
{
	struct attached a = {
		.o = o, .dir.trace_fd = -1,
		.info = { .tracer = o->tracer, .pid = o->pid, .retval = o->retval,
			  .filter = o->filter, .notrace = o->notrace, .depth = o->depth },
	};
	char ending[256];

	a.shm = map_buffer(o->pid);
	if (!a.shm || datadir_create(&a.dir, o->output, &a.info))
		return -1;
	a.drainer = (struct drainer){ .shm = a.shm, .dir = &a.dir };
	if (configure(o->pid, o)) {
		datadir_abandon(&a.dir);
		return -1;
	}
	record_loop(&a);
	if (stop(&a) || finish(&a)) {
		datadir_abandon(&a.dir);
		drain_free(&a.drainer);
		return -1;
	}
	if (a.dir.error)
		fprintf(stderr, "fntrace: recording stopped, %s: what fit is in %s; "
			"%llu events dropped\n", datadir_ending(&a.dir, ending, sizeof(ending)),
			o->output, (unsigned long long)a.info.dropped);
	else
		drain_say_summary(&a.drainer, o->output);
	drain_free(&a.drainer);
	return 0;
}
