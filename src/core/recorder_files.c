// SPDX-License-Identifier: GPL-2.0
/*
 * Files of the data directory that the recorder opens for us.  A process
 * that changed who it is (setuid, setgid) or where its root is (chroot,
 * pivot_root) since the recording started may no longer create
 * funcs-PID there, nor even find the directory; the recorder, which made
 * it, still can.  It hands every process of the recording one end of a
 * packet socket pair (FNTRACE_FILES_FD, inherited across fork and exec
 * like the shared memory's fd; src/record/file_service.c serves it).  A
 * request is one packet carrying one end of a fresh socket pair of ours:
 * the answer comes back on it alone, so processes asking at once never
 * take each other's.  "funcs PID" asks for a new funcs-PID[.IMAGE],
 * answered "ok IMAGE" with its fd; "args" for the args file (-A), which an
 * exec'd program reads at its start, answered "ok 0" with an fd to read
 * it from.  A failure is "error ERRNO".
 *
 * The recorder's end is anonymous: only the processes it started, and
 * what they started, hold it.  No directory stays open in the program,
 * which a chroot meant to confine it would otherwise have a way out of.
 */
#include "recorder_files.h"
#include "buffer.h"
#include "fds.h"
#include "ftrace.h"
#include "../common/fdpass.h"
#include "../common/fileio.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* The recorder drains between answers: a busy one answers late, and one
 * that is stopped not at all, which must not stop us for long. */
#define ANSWER_TIMEOUT_MS 2000


/* A packet socket of the Unix domain, as the recorder's end is. */
static int looks_like_service(int fd)
{
	int type = 0, domain = 0;
	socklen_t len = sizeof(int), dlen = sizeof(int);

	return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 &&
	       getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &dlen) == 0 &&
	       type == SOCK_SEQPACKET && domain == AF_UNIX;
}

/* The recorder's end goes into its slot (fds.c), out of the program's
 * way, and is found there again by an exec'd image. */
void ft_recorder_files_init(const char *fd)
{
	struct stat st;
	char *end;
	long n = fd ? strtol(fd, &end, 10) : -1;

	if (!fd || !*fd || *end || n < 0 || n >= (1 << 30) || fstat((int)n, &st) ||
	    !looks_like_service((int)n))
		return;
	ft_fd_adopt(FT_FD_FILES, (int)n, "FNTRACE_FILES_FD");
}

/* The answer's text and fd; -1 if none came in time. */
static int read_answer(int sock, char *text, size_t size, int *fd)
{
	struct pollfd p = { .fd = sock, .events = POLLIN };

	*fd = -1;
	while (poll(&p, 1, ANSWER_TIMEOUT_MS) < 0)
		if (errno != EINTR)
			return -1;
	if (!(p.revents & POLLIN))
		return -1;
	return fdpass_recv(sock, text, size, fd, MSG_DONTWAIT) > 0 ? 0 : -1;
}

/* One request and its answer: 0, or -1 if none came. */
static int ask(int service, const char *request, char *answer, size_t size, int *fd)
{
	int pair[2], ret = -1;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair))
		return -1;
	if (fdpass_send(service, request, pair[1], MSG_DONTWAIT) == 0) {
		close(pair[1]);
		pair[1] = -1;
		ft_buffer_wake_recorder();
		ret = read_answer(pair[0], answer, size, fd);
	}
	close(pair[0]);
	if (pair[1] >= 0)
		close(pair[1]);
	return ret;
}

/* The fd the answer to request carries, and its number in *number; or
 * -1 with errno set. */
static int ask_for_fd(const char *request, unsigned *number)
{
	char answer[32];
	int service = ft_fd_checked(FT_FD_FILES), fd, err;

	/* gone, or its number is the program's now (a raw close_range) */
	if (service < 0) {
		errno = ENOENT;
		return -1;
	}
	if (ask(service, request, answer, sizeof(answer), &fd))
		return -1;
	if (fd >= 0 && sscanf(answer, "ok %u", number) == 1)
		return fd;
	if (fd >= 0)
		close(fd);
	errno = sscanf(answer, "error %d", &err) == 1 && err > 0 ? err : EIO;
	return -1;
}

int ft_recorder_make_funcs(uint32_t pid, uint32_t *image)
{
	char request[32];
	unsigned got;
	int fd;

	snprintf(request, sizeof(request), "funcs %u", (unsigned)pid);
	fd = ask_for_fd(request, &got);
	if (fd >= 0)
		*image = got;
	return fd;
}

char *ft_recorder_read_args(void)
{
	unsigned unused;
	int fd = ask_for_fd("args", &unused);
	char *text = fd >= 0 ? read_text_fd(fd) : NULL;

	if (fd >= 0)
		close(fd);
	return text;
}
