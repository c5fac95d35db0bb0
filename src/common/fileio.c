// SPDX-License-Identifier: GPL-2.0
/*
 * Whole reads and writes, and files replaced in one step (fileio.h).
 */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* One loop for both directions, so that they cannot come to differ. */
static int transfer(int fd, char *p, size_t len, int writing)
{
	while (len) {
		ssize_t n = writing ? write(fd, p, len) : read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* Dropping const is safe: transfer() only reads buf when writing. */
int write_all(int fd, const void *buf, size_t len)
{
	return transfer(fd, (char *)buf, len, 1);
}

int writev_all(int fd, struct iovec *iov, int n)
{
	while (n) {
		ssize_t w;

		while (n && !iov->iov_len) {
			iov++;
			n--;
		}
		if (!n)
			break;
		w = writev(fd, iov, n > IOV_MAX ? IOV_MAX : n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		for (; n && (size_t)w >= iov->iov_len; iov++, n--)
			w -= iov->iov_len;
		if (n) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= w;
		}
	}
	return 0;
}

int read_all(int fd, void *buf, size_t len)
{
	return transfer(fd, buf, len, 0);
}

char *read_text_fd(int fd)
{
	struct stat st;
	char *text = NULL;

	if (fstat(fd, &st) == 0 && (text = malloc(st.st_size + 1)) &&
	    read_all(fd, text, st.st_size) == 0) {
		text[st.st_size] = '\0';
		return text;
	}
	free(text);
	return NULL;
}

char *read_text_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *text = fd >= 0 ? read_text_fd(fd) : NULL;

	if (fd >= 0)
		close(fd);
	return text;
}

char *read_proc_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf = NULL, *grown;
	size_t cap = 0;
	ssize_t n = 1;

	*len = 0;
	if (fd < 0)
		return NULL;
	while (n > 0 && (grown = realloc(buf, cap += 4096))) {
		buf = grown;
		do
			n = read(fd, buf + *len, cap - *len - 1);
		while (n < 0 && errno == EINTR);
		*len += n > 0 ? (size_t)n : 0;
	}
	close(fd);
	if (n > 0) {		/* out of memory */
		free(buf);
		return NULL;
	}
	buf[*len] = '\0';
	return buf;
}

/* "DIR/.NAME.tmp-XXXXXX" for "DIR/NAME": in the same directory, so on the
 * same file system, where rename() is atomic; hidden, so that nobody
 * listing the directory for files like NAME takes it for one. */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	char *tmp;

	if (asprintf(&tmp, "%.*s.%s.tmp-XXXXXX", dirlen, path, path + dirlen) < 0)
		return NULL;
	return tmp;
}

/* Fill the new file and close it: a close can be the first to report a
 * failed write (NFS, a full disk), so it counts as one.  (A write that
 * returns 0 sets no errno: EIO stands in.) */
static int fill(int fd, const void *data, size_t len, mode_t mode)
{
	int err = 0;

	if (write_all(fd, data, len) || fchmod(fd, mode))
		err = errno ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	errno = err;
	return err ? -1 : 0;
}

int replace_file(const char *path, const void *data, size_t len, mode_t mode)
{
	char *tmp = temp_name(path);
	int fd = tmp ? mkostemp(tmp, O_CLOEXEC) : -1;
	int err;

	if (fd >= 0 && fill(fd, data, len, mode) == 0 && rename(tmp, path) == 0) {
		free(tmp);
		return 0;
	}
	err = errno;
	if (fd >= 0)
		unlink(tmp);
	free(tmp);
	errno = err;
	return -1;
}
