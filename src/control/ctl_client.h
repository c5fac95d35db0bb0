/* SPDX-License-Identifier: GPL-2.0 */
/*
 * src/control/: the client side of a traced process's control endpoint
 * (protocol in src/core/control.h).  Used by ctl, record -p, attach and
 * detach.
 */
#ifndef FNTRACE_CTL_CLIENT_H
#define FNTRACE_CTL_CLIENT_H

#include <stddef.h>
#include <sys/types.h>

struct ctl_conn {
	pid_t pid;
	int fd;
	int err;		/* errno of a failed send or receive, or 0 */
	unsigned waited_ms;	/* on a running process's answer, beyond the limit */
	size_t pos, len;
	char buf[65536];
};

/* Send one request and read the answer's status line.  Returns the
 * connection, positioned at the answer's content, or NULL after one line
 * saying why; *status is then CLI_EXIT_FAILED (exit_status.h), whether
 * the process refused or there is no such process or endpoint.  fd, if not NULL, receives an fd sent along
 * the answer (or -1). */
/* pid as the process itself sees it, in its own PID namespace (the last
 * number of NSpid in its status): the name of its endpoint, and the pid
 * its events carry. */
long ctl_own_pid(pid_t pid);
/* Does the process have a control endpoint (a socket file) now? */
int ctl_endpoint_exists(pid_t pid);
struct ctl_conn *ctl_request(pid_t pid, const char *op, const char *file,
			     const char *value, int *fd, int *status);
void ctl_close(struct ctl_conn *c);
/* One line on why the answer stopped short: no answer in time, an error,
 * or the process closed the connection. */
void ctl_say_broken(const struct ctl_conn *c, const char *file);
/* How long to wait to connect, to send, and for each part of an answer;
 * 5000 unless fntrace ctl --timeout says otherwise. */
extern int ctl_timeout_ms;
/* Has the process call sites to trace (available_filter_functions
 * names a function)?  1, 0, or -1 after one line saying why not known. */
int ctl_has_call_sites(pid_t pid);
/* A write whose answer has no content: 0, or the status above. */
int ctl_set(pid_t pid, const char *file, const char *value);

/* Reading the answer: a line (without its newline), exactly n bytes, or
 * whatever comes; -1 at the end or on an error.  ctl_wait: is data
 * there within timeout_ms (1), not (0), or is the stream over (-1)? */
int ctl_read_line(struct ctl_conn *c, char *line, size_t max);
int ctl_read_exact(struct ctl_conn *c, void *dst, size_t n);
ssize_t ctl_read_some(struct ctl_conn *c, void *dst, size_t max);
int ctl_wait(struct ctl_conn *c, int timeout_ms);

#endif
