/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control endpoint: the tracefs of a traced process, reached by
 * `fntrace ctl PID FILE [VALUE]` through a Unix socket.
 *
 * The socket is /tmp/fntrace-UID/PID in a directory only its owner can
 * enter; a connection is served only if the peer runs as the same user or
 * as root.  One request per connection:
 *
 *   client:  "read FILE\n"  |  "write FILE\n" VALUE  |  "append FILE\n" VALUE
 *            then shuts down its sending side
 *   server:  "ok\n" CONTENT  |  "error ERRNO MESSAGE\n"
 *
 * A client that closes its socket instead (it was killed, or gave up)
 * gets nothing done.  While one reader streams trace_pipe, the clients
 * that come meanwhile are served between its passes.
 */
#ifndef FNTRACE_CONTROL_H
#define FNTRACE_CONTROL_H

#include <stddef.h>
#include <sys/types.h>

/* Serve the endpoint from a thread that sleeps in accept() until someone
 * connects: no system call and no wake-up while nobody does. */
int ft_control_start(void);
/* The threads fntrace attach let take SIGTRAP, space-separated. */
const char *ft_traps_unblocked(void);

/* Output to the client, buffered. */
struct ctl_out {
	int fd;
	size_t len;
	int failed;
	int send_fd;		/* an fd to pass with the first bytes, or -1 */
	int streaming;		/* sent without blocking, others served while it waits */
	char buf[16384];
};

void ctl_write(struct ctl_out *o, const void *data, size_t len);
void ctl_printf(struct ctl_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ctl_flush(struct ctl_out *o);
/* Has the client closed its end of the connection? */
int ctl_peer_gone(int fd);
/* The client's pid, 0 if unknown. */
pid_t ctl_peer_pid(int fd);

/* One file of the control directory (ctlfiles.c). */
struct ctl_file {
	const char *name;
	int (*read)(struct ctl_out *o, int arg);
	int (*write)(const char *value, int append, int arg, char *err, size_t errlen);
	int arg;		/* for files that share their functions */
};

const struct ctl_file *ctl_file_find(const char *name);
/* A consuming reader (trace_pipe, record -p's buffer_fd) while a
 * recorder drains the buffer or trace_pipe streams: -1, the refusal
 * written to o. */
int ft_ctl_busy(struct ctl_out *o);
/* trace_pipe's start: refused as ft_ctl_busy() refuses, else the buffer
 * is the pipe's until ft_ctl_pipe_release(). */
int ft_ctl_pipe_claim(struct ctl_out *o);
void ft_ctl_pipe_release(void);

/* Is the caller the control thread?  And the client it serves now (its
 * pid; 0 if none or unknown). */
int ft_control_on_thread(void);
/* Its tid, 0 until it starts. */
pid_t ft_control_tid(void);
pid_t ft_control_client_pid(void);
/* Is this process's control thread there to serve (not stopped by a
 * detach, not the parent's only, after a fork)? */
int ft_control_running(void);

/* The control thread's own set-up as it starts (control_self.c): the
 * signals it takes (sync_signal among them, if not 0), and the
 * scheduler's weight it serves with. */
void ft_control_take_signals(int sync_signal);
void ft_control_take_priority(void);

/* After the current request is answered, close the endpoint (detach). */
void ft_control_stop_after_request(void);
/* Has a request asked for that?  A stream then ends. */
int ft_control_stopping(void);
/* For a streaming answer: serve the clients waiting now. */
void ft_control_serve_waiting(void);
/* Wait up to ms for events on fd (a streaming reader's), the clients
 * that come meanwhile served; fd's revents, 0 if none, or -1. */
int ft_control_wait_serving(int fd, short events, int ms);

#endif
