// SPDX-License-Identifier: GPL-2.0
/*
 * Packets with a descriptor along (fdpass.h).  Whatever a peer sends, a
 * receiver keeps one descriptor at most: any others are closed, so a
 * peer cannot fill our table.
 */
#include "fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int fdpass_send(int sock, const char *text, int fd, int flags)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { (void *)text, strlen(text) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	ssize_t n;

	if (fd >= 0) {
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &msg, flags | MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -1 : 0;
}

/* The first descriptor the packet carried; the rest are closed. */
static int keep_first(struct msghdr *msg)
{
	int keep = -1;

	for (struct cmsghdr *cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR(msg, cm)) {
		size_t n;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (keep < 0)
				keep = fd;
			else
				close(fd);
		}
	}
	return keep;
}

ssize_t fdpass_recv(int sock, char *text, size_t size, int *fd, int flags)
{
	/* Room for a few, to close what a peer sends beyond the one. */
	char control[CMSG_SPACE(4 * sizeof(int))];
	struct iovec iov = { text, size - 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control, .msg_controllen = sizeof(control) };
	ssize_t n;

	*fd = -1;
	do
		n = recvmsg(sock, &msg, flags | MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	text[n] = '\0';
	*fd = keep_first(&msg);
	return n;
}
