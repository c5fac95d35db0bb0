// SPDX-License-Identifier: GPL-2.0
/*
 * Where a recording goes, and what it may replace.  `record -o DIR` keeps
 * the previous DIR as DIR.old; both names may be anything of the user's:
 * a directory of their own, a symlink to one, a file.  So fntrace
 * replaces or removes only a directory it recognises as one of its
 * recordings, found by its own name (never through a symlink), and says
 * before the program runs when the output cannot be placed.
 */
#include "datadir.h"
#include "flight.h"
#include "../cli/cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every data directory's info starts so (datadir_info.c). */
#define INFO_TAG "fntrace-data: "

int datadir_file_starts(int dir_fd, const char *file, const char *tag)
{
	size_t len = strlen(tag);
	char head[64];
	int fd = len <= sizeof(head) ? openat(dir_fd, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, head, len);
	close(fd);
	return n == (ssize_t)len && !memcmp(head, tag, len);
}

static int info_is_ours(int dir_fd)
{
	return datadir_file_starts(dir_fd, "info", INFO_TAG);
}

/* Nothing in it but plain files: a recording has no subdirectories and
 * no links. */
static int only_plain_files(int dir_fd)
{
	int fd = dup(dir_fd), plain = 1;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	struct stat st;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	rewinddir(d);	/* the offset is shared with dir_fd's */
	while (plain && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			plain = !fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
				S_ISREG(st.st_mode);
	closedir(d);
	return plain;
}

/* PATH itself, a directory and not a symlink to one: its fd if it is a
 * recording, else -1. */
static int open_recording(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0 && info_is_ours(fd) && only_plain_files(fd))
		return fd;
	if (fd >= 0)
		close(fd);
	return -1;
}

int datadir_is_recording(const char *path)
{
	int fd = open_recording(path);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* A path that exists must be one of our recordings to be replaced. */
static int replaceable(const char *path)
{
	return !exists(path) || datadir_is_recording(path) || flight_dir_is_ours(path);
}

int datadir_name(const char *dir, char *buf, size_t len)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 0 || !strcmp(dir, "/") || n >= len) {
		cli_error("-o '%s': not a name a data directory can have", dir);
		return -1;
	}
	memcpy(buf, dir, n);
	buf[n] = '\0';
	return 0;
}

int datadir_check_output(const char *dir)
{
	char name[4096], old[4200];

	if (datadir_name(dir, name, sizeof(name)))
		return -1;
	snprintf(old, sizeof(old), "%s.old", name);
	if (!replaceable(name)) {
		cli_error("%s exists and is not an fntrace recording: not replacing it "
			  "(choose another -o)", name);
		return -1;
	}
	if (exists(name) && !replaceable(old)) {
		cli_error("%s exists and is not an fntrace recording: %s cannot be kept "
			  "there (move it away or choose another -o)", old, name);
		return -1;
	}
	return 0;
}

int datadir_remove_recording(const char *path)
{
	int fd = open_recording(path), fd2 = fd >= 0 ? dup(fd) : -1;
	DIR *d = fd2 >= 0 ? fdopendir(fd2) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		if (fd2 >= 0)
			close(fd2);
		errno = ENOTEMPTY;
		return -1;
	}
	rewinddir(d);	/* open_recording() read it to the end */
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(fd, e->d_name, 0);
	closedir(d);
	close(fd);
	return rmdir(path);
}

int datadir_remove_ours(const char *path)
{
	return flight_dir_is_ours(path) ? flight_dir_remove(path) : datadir_remove_recording(path);
}

/* DIR becomes DIR.old (an older DIR.old goes), then TMP becomes DIR. */
int datadir_place(const char *tmp, const char *final)
{
	char old[4200];
	int previous = exists(final);

	snprintf(old, sizeof(old), "%s.old", final);
	if (previous && (!replaceable(final) || !replaceable(old))) {
		cli_error("%s or %s is not an fntrace recording any more: this recording "
			  "stays in %s", final, old, tmp);
		return -1;
	}
	if (previous && ((exists(old) && datadir_remove_ours(old)) || rename(final, old))) {
		cli_error("cannot keep the previous %s as %s: %s; this recording stays in %s",
			  final, old, strerror(errno), tmp);
		return -1;
	}
	if (rename(tmp, final)) {
		cli_error("cannot rename %s to %s: %s", tmp, final, strerror(errno));
		return -1;
	}
	return 0;
}
