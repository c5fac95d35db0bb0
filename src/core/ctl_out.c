// SPDX-License-Identifier: GPL-2.0
/*
 * An answer of the control endpoint on its way to the client: buffered,
 * with an fd passed along its first bytes if asked.
 *
 * A streaming answer (trace_pipe) may last for ever, and its reader may
 * be slow: it is sent without blocking, and while its reader takes
 * nothing the control thread serves the other clients waiting, so that
 * no reader keeps the endpoint from them (a `tracing_on 0`, above all).
 */
#include "control.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* Each wait for a slow reader, before the endpoint's slot is read again
 * (a dup2() of the program's may move it meanwhile). */
#define WAIT_SLICE_MS 200

void ctl_write(struct ctl_out *o, const void *data, size_t len)
{
	const char *p = data;

	while (len && !o->failed) {
		size_t n = sizeof(o->buf) - o->len < len ? sizeof(o->buf) - o->len : len;

		memcpy(o->buf + o->len, p, n);
		o->len += n;
		p += n;
		len -= n;
		if (o->len == sizeof(o->buf))
			ctl_flush(o);
	}
}

void ctl_printf(struct ctl_out *o, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		ctl_write(o, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

/* The first bytes, with the fd to pass (SCM_RIGHTS). */
static ssize_t send_with_fd(struct ctl_out *o, size_t done)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { o->buf + done, o->len - done };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control, .msg_controllen = sizeof(control) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	ssize_t n;

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &o->send_fd, sizeof(int));
	n = sendmsg(o->fd, &msg, MSG_NOSIGNAL);
	if (n > 0)
		o->send_fd = -1;
	return n;
}

static ssize_t send_some(struct ctl_out *o, size_t done)
{
	if (o->send_fd >= 0)
		return send_with_fd(o, done);
	return send(o->fd, o->buf + done, o->len - done,
		    MSG_NOSIGNAL | (o->streaming ? MSG_DONTWAIT : 0));
}

/*
 * A streaming reader that takes nothing for now: the other clients are
 * served meanwhile.  0 once it can take more; -1 when it is gone or the
 * endpoint is closing.  A reader slow for however long (a pager, a
 * formatting that falls behind) is not dropped: as with the kernel's
 * trace_pipe, it keeps the stream while it is there, and holds up
 * nobody else.
 */
static int wait_for_reader(struct ctl_out *o)
{
	while (!ft_control_stopping()) {
		int ready = ft_control_wait_serving(o->fd, POLLOUT, WAIT_SLICE_MS);

		if (ready < 0 || (ready & (POLLHUP | POLLERR | POLLNVAL)))
			return -1;
		if (ready & POLLOUT)
			return 0;
	}
	return -1;
}

int ctl_flush(struct ctl_out *o)
{
	size_t done = 0;

	while (!o->failed && done < o->len) {
		ssize_t n = send_some(o, done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && o->streaming && !wait_for_reader(o))
			continue;
		if (n <= 0)
			o->failed = 1;
		else
			done += n;
	}
	o->len = 0;
	return o->failed ? -1 : 0;
}

/* The client closed its socket: not POLLRDHUP, since every client shuts
 * its sending side once its request is sent, and then waits. */
int ctl_peer_gone(int fd)
{
	struct pollfd p = { .fd = fd };

	return poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR));
}
