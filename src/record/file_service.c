// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's side of the file service (src/core/recorder_files.c
 * says why and how).  A request names what it wants, never where: the
 * answer is a new funcs-PID[.IMAGE] in the data directory, made as the
 * recorder's user, or the args file to read, so a process of the
 * recording can add files of that one form, read that one file, and do
 * nothing else there.
 */
#include "file_service.h"
#include "datadir.h"
#include "../common/fdpass.h"
#include "../common/trace_format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void file_service_started(struct file_service *s)
{
	if (s->theirs >= 0)
		close(s->theirs);
	s->theirs = -1;
}

void file_service_close(struct file_service *s)
{
	file_service_started(s);
	if (s->ours >= 0)
		close(s->ours);
	s->ours = -1;
}

int file_service_open(struct file_service *s)
{
	int pair[2];

	s->ours = s->theirs = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair))
		return -1;
	s->ours = pair[0];
	s->theirs = pair[1];
	if (fcntl(s->ours, F_SETFL, O_NONBLOCK) == 0)
		return 0;
	file_service_close(s);
	return -1;
}

/* The first funcs-PID[.IMAGE] that does not exist yet, as the runtime
 * looks for it itself. */
static int make_funcs(const struct datadir *d, unsigned pid, unsigned *image)
{
	char path[4200];
	int fd = -1;

	for (*image = 0; *image < 1000; ++*image) {
		ft_funcs_path(path, sizeof(path), d->tmp, pid, *image);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	return fd;
}

/* Nobody waiting any more (the process gave up, or ended) is no error
 * of ours. */
static void answer(int sock, const char *text, int fd)
{
	if (fdpass_send(sock, text, fd, MSG_DONTWAIT))
		return;
}

/* The args file (-A), to read. */
static int open_args(const struct datadir *d)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/args", d->tmp);
	return open(path, O_RDONLY | O_CLOEXEC);
}

static void serve_one(const struct datadir *d, const char *request, int sock)
{
	char text[32];
	unsigned pid, image = 0;
	int n = 0, fd;

	if (!strcmp(request, "args")) {
		fd = open_args(d);
	} else if (sscanf(request, "funcs %u%n", &pid, &n) == 1 && !request[n] && pid) {
		fd = make_funcs(d, pid, &image);
	} else {
		errno = EINVAL;
		fd = -1;
	}
	if (fd < 0)
		snprintf(text, sizeof(text), "error %d", errno ? errno : EIO);
	else
		snprintf(text, sizeof(text), "ok %u", image);
	answer(sock, text, fd);
	if (fd >= 0)
		close(fd);
}

void file_service_serve(struct file_service *s, const struct datadir *d)
{
	char request[64];
	int sock;

	while (s->ours >= 0 && fdpass_recv(s->ours, request, sizeof(request), &sock, 0) > 0) {
		if (sock >= 0) {
			serve_one(d, request, sock);
			close(sock);
		}
	}
}
