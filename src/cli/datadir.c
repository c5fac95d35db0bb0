// SPDX-License-Identifier: GPL-2.0
/*
 * Creating, filling and sealing a data directory.
 */
#include "datadir.h"
#include "cli.h"
#include "../common/trace_format.h"
#include "arch_clock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

void clock_sample(uint64_t *ticks, uint64_t *ns)
{
	struct timespec a, b;

	/* The tick read sits between two clock reads: take their middle. */
	clock_gettime(CLOCK_MONOTONIC, &a);
	*ticks = arch_clock();
	clock_gettime(CLOCK_MONOTONIC, &b);
	*ns = ((uint64_t)a.tv_sec * 1000000000 + a.tv_nsec +
	       (uint64_t)b.tv_sec * 1000000000 + b.tv_nsec) / 2;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int datadir_create(struct datadir *d, const char *dir)
{
	struct ft_file_header h = { .version = FT_VERSION, .word_order = 0x01020304 };
	char cwd[2048], path[4200];

	if (dir[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		return -1;
	snprintf(d->final, sizeof(d->final), "%s", dir);
	snprintf(d->tmp, sizeof(d->tmp), "%s%s%s.tmp-%d", dir[0] == '/' ? "" : cwd,
		 dir[0] == '/' ? "" : "/", dir, (int)getpid());
	if (mkdir(d->tmp, 0755)) {
		cli_error("cannot create %s: %s", d->tmp, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/trace.dat", d->tmp);
	d->trace_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	memcpy(h.magic, FT_FILE_MAGIC, sizeof(h.magic));
	if (d->trace_fd < 0 || write_all(d->trace_fd, &h, sizeof(h))) {
		cli_error("cannot write %s: %s", path, strerror(errno));
		datadir_abandon(d);
		return -1;
	}
	return 0;
}

int datadir_write(struct datadir *d, const void *head, size_t head_len,
		  const void *data, size_t len)
{
	if (write_all(d->trace_fd, head, head_len) || write_all(d->trace_fd, data, len)) {
		cli_error("cannot write the trace: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int datadir_remove(const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	char path[4400];

	if (!dh)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(dh)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(dh);
	return rmdir(dir);
}

void datadir_abandon(struct datadir *d)
{
	if (d->trace_fd >= 0)
		close(d->trace_fd);
	d->trace_fd = -1;
	datadir_remove(d->tmp);
}

int datadir_finish(struct datadir *d, const char *info)
{
	char path[4200], old[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/info", d->tmp);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write_all(fd, info, strlen(info)) ||
	    close(fd) || close(d->trace_fd)) {
		cli_error("cannot write %s: %s", path, strerror(errno));
		datadir_abandon(d);
		return -1;
	}
	d->trace_fd = -1;
	snprintf(old, sizeof(old), "%s.old", d->final);
	if (access(d->final, F_OK) == 0 && (datadir_remove(old) || rename(d->final, old))) {
		cli_error("cannot move the old %s aside: %s", d->final, strerror(errno));
		return -1;
	}
	if (rename(d->tmp, d->final)) {
		cli_error("cannot rename %s to %s: %s", d->tmp, d->final, strerror(errno));
		return -1;
	}
	return 0;
}
