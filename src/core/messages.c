// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's messages (ft_warn, ft_debug) go to the user, never into a
 * stream of the program's.  A daemon puts /dev/null, a log file or a
 * socket over descriptor 2; a message written there would be read as the
 * program's own output.  So:
 *
 *  - started with the program (run, record, a preload), the runtime
 *    writes to a copy of the stderr the program was started with, taken
 *    at start-up and kept out of the program's way (fds.c): what the user
 *    who started it sees, whatever the program does to its descriptor 2;
 *  - loaded by `fntrace attach`, it writes to no descriptor of the
 *    target: its stderr was never the attaching user's.
 *
 * Every message also goes into a ring of the last RING_LINES, which the
 * control file `messages` hands out (each line once): fntrace attach
 * prints what the start-up said, and `fntrace ctl PID messages` shows
 * the rest.
 */
#include "control.h"
#include "fds.h"
#include "ftrace.h"
#include "messages.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RING_LINES 64
#define LINE_LEN 512

static char ring[RING_LINES][LINE_LEN];
static _Atomic unsigned long lines_said;
static unsigned long lines_read;	/* the control thread's alone */
static int debug;

/* A writer that another overtakes by RING_LINES lines while it copies
 * (64 warnings at once) may leave a line mixed: a message, never harm. */
static void keep(const char *line, size_t len)
{
	unsigned long n = atomic_fetch_add(&lines_said, 1);

	memcpy(ring[n % RING_LINES], line, len);
	ring[n % RING_LINES][len] = '\0';
}

static void say(const char *fmt, va_list ap)
{
	char buf[LINE_LEN];
	int n = snprintf(buf, sizeof(buf), "fntrace: "), fd;

	n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	keep(buf, n);
	fd = ft_fd_checked(FT_FD_MESSAGES);
	if (fd >= 0 && write(fd, buf, n) < 0)
		return;
}

void ft_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

void ft_debug(const char *fmt, ...)
{
	va_list ap;

	if (!debug)
		return;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

/* A small file of /proc, whose size stat() does not give. */
static int read_proc(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? 0 : -1;
}

/* Is fntrace attach loading us?  It runs the dlopen() under ptrace: the
 * process's tracer is an fntrace. */
static int loaded_by_attach(void)
{
	char status[4096], path[64], comm[32];
	const char *line;
	long tracer;

	if (read_proc("/proc/self/status", status, sizeof(status)) ||
	    !(line = strstr(status, "\nTracerPid:")))
		return 0;
	tracer = strtol(line + strlen("\nTracerPid:"), NULL, 10);
	snprintf(path, sizeof(path), "/proc/%ld/comm", tracer);
	return tracer > 0 && !read_proc(path, comm, sizeof(comm)) && !strcmp(comm, "fntrace\n");
}

/* From 3 up: a closed 0 or 1 must not get it for a moment. */
static int copy_stderr(void *unused)
{
	return fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
}

/* At start-up, before anything is said. */
void ft_messages_start(void)
{
	debug = getenv("FNTRACE_DEBUG") != NULL;
	if (loaded_by_attach())
		return;
	ft_fd_open(FT_FD_MESSAGES, copy_stderr, NULL, NULL);
}

/* fntrace attach: from now on, the attaching user reads the messages. */
void ft_messages_attached(void)
{
	ft_fd_release(FT_FD_MESSAGES);
}

/* The control file `messages`: every line not handed out yet, oldest
 * first (those the ring lost: said in one line). */
int ft_messages_read(struct ctl_out *o, int arg)
{
	unsigned long said = atomic_load(&lines_said), from = lines_read;

	ctl_printf(o, "ok\n");
	if (said - from > RING_LINES) {
		ctl_printf(o, "fntrace: (%lu earlier messages lost)\n", said - from - RING_LINES);
		from = said - RING_LINES;
	}
	for (; from < said; from++)
		ctl_printf(o, "%s", ring[from % RING_LINES]);
	lines_read = said;
	return 0;
}
