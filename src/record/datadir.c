// SPDX-License-Identifier: GPL-2.0
/*
 * Creating, filling and sealing a data directory.
 */
#include "datadir.h"
#include "../cli/cli.h"
#include "../common/clock_pair.h"
#include "../common/fileio.h"
#include "../common/trace_format.h"

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

/* Room held back for the final info: a disk filled by trace.dat must
 * still take it. */
#define SPARE_BYTES (64 * 1024)

static void path_in(const struct datadir *d, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", d->tmp, name);
}

static int write_spare(const struct datadir *d)
{
	static const char zeros[SPARE_BYTES];
	char path[4200];
	int fd, err;

	path_in(d, "spare", path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	err = write_all(fd, zeros, sizeof(zeros));
	return close(fd) || err ? -1 : 0;
}

static void drop_spare(const struct datadir *d)
{
	char path[4200];

	path_in(d, "spare", path, sizeof(path));
	unlink(path);
}

/* Replaced whole: a reader sees one info or the other, never half of
 * one.  -1 with errno set on failure. */
static int write_info(const struct datadir *d, int sealed)
{
	char path[4200], *text = datadir_info_text(d, d->info, sealed);
	int ret, err;

	if (!text)
		return -1;
	path_in(d, "info", path, sizeof(path));
	ret = replace_file(path, text, strlen(text), d->mode);
	err = errno;
	free(text);
	errno = err;
	return ret;
}

/* The chunk a failed write began goes, so that the trace ends on a
 * whole one; should this fail too, the reader says the trace ends inside
 * a chunk.  (A SIGCHLD may interrupt it.) */
static void cut_back(const struct datadir *d)
{
	while (ftruncate(d->trace_fd, d->file_size) && errno == EINTR)
		;
}

/* Nothing more is written, and the spare room goes to the info saying
 * so. */
void datadir_stop_writing(struct datadir *d, int err)
{
	d->error = err ? err : EIO;
	cut_back(d);
	drop_spare(d);
	write_info(d, 0);
}

/* A new trace file, its header written.  The mode open() gave the first,
 * 0644 less the umask, is kept for info, which replace_file() makes with
 * the mode it is told. */
int datadir_open_trace(struct datadir *d, const char *name)
{
	struct ft_file_header h = { .version = FT_VERSION, .word_order = FT_WORD_ORDER };
	char path[4200];
	struct stat st;

	memcpy(h.magic, FT_FILE_MAGIC, sizeof(h.magic));
	if (d->trace_fd >= 0)
		close(d->trace_fd);
	path_in(d, name, path, sizeof(path));
	d->trace_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (d->trace_fd < 0 || fstat(d->trace_fd, &st))
		return -1;
	if (!d->mode)
		d->mode = st.st_mode & 07777;
	d->file_size = 0;
	if (write_all(d->trace_fd, &h, sizeof(h)))
		return -1;
	d->file_size = sizeof(h);
	d->size += sizeof(h);
	return 0;
}

/* trace.dat, or with --max-size its first segment. */
static int open_first_trace(struct datadir *d)
{
	d->trace_fd = -1;
	return d->info->max_size ? datadir_cap_start(d) : datadir_open_trace(d, "trace.dat");
}

int datadir_create(struct datadir *d, const char *dir, struct datadir_info *info)
{
	char cwd[2048], name[4096];

	if (datadir_name(dir, name, sizeof(name)) ||
	    (name[0] != '/' && !getcwd(cwd, sizeof(cwd))))
		return -1;
	dir = name;
	d->info = info;
	info->started = time(NULL);
	ft_clock_pair(&info->clock.ticks[0], &info->clock.ns[0]);
	info->clock.ticks[1] = info->clock.ticks[0];
	info->clock.ns[1] = info->clock.ns[0];
	snprintf(d->final, sizeof(d->final), "%s", dir);
	if ((size_t)snprintf(d->tmp, sizeof(d->tmp), "%s%s%s.tmp-%d", dir[0] == '/' ? "" : cwd,
			     dir[0] == '/' ? "" : "/", dir, (int)getpid()) >= sizeof(d->tmp)) {
		cli_error("%s: a name too long", dir);
		return -1;
	}
	if (mkdir(d->tmp, 0755)) {
		cli_error("cannot create %s: %s", d->tmp, strerror(errno));
		return -1;
	}
	if (open_first_trace(d) || write_info(d, 0) || write_spare(d)) {
		cli_error("cannot write in %s: %s", d->tmp, strerror(errno));
		datadir_abandon(d);
		return -1;
	}
	return 0;
}

#define WRITEV_PIECES	64

/* Pieces [0, n) appended to the file trace_fd writes, a writev for
 * each WRITEV_PIECES of them: how many were written whole, n unless a
 * write failed (which stops the writing, the file cut back to its last
 * whole chunk). */
static unsigned append(struct datadir *d, const struct datadir_piece *p, unsigned n)
{
	struct iovec iov[2 * WRITEV_PIECES];
	unsigned done = 0;

	if (d->stream)
		return datadir_stream_chunks(d, p, n);
	while (done < n) {
		unsigned k = n - done < WRITEV_PIECES ? n - done : WRITEV_PIECES;
		size_t len = 0;

		for (unsigned i = 0; i < k; i++) {
			const struct datadir_piece *q = &p[done + i];

			iov[2 * i] = (struct iovec){ (void *)&q->head, sizeof(q->head) };
			iov[2 * i + 1] = (struct iovec){ (void *)q->events, q->head.used };
			len += sizeof(q->head) + q->head.used;
		}
		if (writev_all(d->trace_fd, iov, 2 * k)) {
			datadir_stop_writing(d, errno);
			break;
		}
		d->size += len;
		d->file_size += len;
		done += k;
	}
	return done;
}

unsigned datadir_write_chunks(struct datadir *d, const struct datadir_piece *p, unsigned n)
{
	unsigned done = 0;

	if (!d->info->max_size)
		return d->error ? 0 : append(d, p, n);
	while (done < n && !d->error) {
		unsigned k = datadir_cap_room(d, p + done, n - done);
		unsigned w = append(d, p + done, k);

		for (unsigned i = 0; i < w; i++)
			datadir_cap_note(d, &p[done + i]);
		done += w;
		if (w < k || !k)
			break;
	}
	return done;
}

/* trace.dat, or the whole directory, removed under the recorder: writes
 * would go on succeeding, into a file nobody can read. */
static int removed(const struct datadir *d)
{
	struct stat st;

	return d->error == ENOENT || (fstat(d->trace_fd, &st) == 0 && st.st_nlink == 0);
}

int datadir_refresh(struct datadir *d)
{
	if (!d->error && removed(d))
		datadir_stop_writing(d, ENOENT);
	ft_clock_pair(&d->info->clock.ticks[1], &d->info->clock.ns[1]);
	if (write_info(d, 0) == 0)
		return d->stream ? datadir_stream_mirror(d) : 0;
	if (!d->error)
		datadir_stop_writing(d, errno);
	return -1;
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
	datadir_stream_close(d);
	if (d->trace_fd >= 0)
		close(d->trace_fd);
	d->trace_fd = -1;
	datadir_cap_free(d);
	datadir_remove(d->tmp);
}

int datadir_seal(struct datadir *d)
{
	if (removed(d)) {
		d->error = ENOENT;
		datadir_abandon(d);	/* whatever the remover left */
		return -1;
	}
	if (close(d->trace_fd) && !d->error)
		d->error = errno;	/* the last writes may be lost */
	d->trace_fd = -1;
	datadir_cap_free(d);
	drop_spare(d);
	if (write_info(d, 1)) {
		int err = errno;

		/* Said by the recorder, with how the recording ended. */
		if (access(d->tmp, F_OK) && errno == ENOENT)
			d->error = ENOENT;
		else if (!d->error)
			d->error = err;
		return -1;
	}
	if (d->stream)
		return datadir_stream_seal(d);
	if (datadir_place(d->tmp, d->final)) {
		d->unplaced = 1;
		return -1;
	}
	return 0;
}
