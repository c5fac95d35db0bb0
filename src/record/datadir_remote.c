// SPDX-License-Identifier: GPL-2.0
/*
 * record --host: the data directory sent to a listener as it is
 * recorded (docs/design.md, *Remote recording*).
 *
 * The recording is made as a local one is, in a staging directory under
 * $TMPDIR, which the processes write their funcs-PID files into and the
 * recorder its info; only trace.dat's chunks never touch the disk: each
 * batch of them is queued on the stream as it is drained (an APPEND to
 * trace.dat).  The directory's other files are mirrored: at the start,
 * at each refresh of the info (once a second) and at the end, each file
 * that changed is sent, the new end of one that grew (funcs-PID files are
 * appended to), the whole of one replaced (info).  So the listener's copy
 * lags the program's tables by a second at most, and has everything once
 * the recording ends; and the workstation needs neither the program nor
 * its libraries to read it.
 *
 * A batch the queue refuses (a slow peer) is dropped and counted as a
 * full disk's is, and the recording goes on; a lost connection stops the
 * writing as a failed write does, the events from then on counted.
 */
#include "datadir.h"
#include "../cli/cli.h"
#include "../common/fileio.h"
#include "../remote/sender.h"
#include "../remote/stream.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file sent in records of this much at most. */
#define PIECE_BYTES (1u << 20)

struct mirror_file {
	char name[STREAM_NAME_MAX + 1];
	dev_t dev;
	ino_t ino;
	off_t sent;
};

/* A process image whose chunks were sent: its funcs file went first. */
struct stream_image {
	uint32_t pid, image;
};

struct datadir_stream {
	struct sender *sender;
	struct mirror_file *files;
	size_t nr, cap;
	struct stream_image *images;
	size_t nr_images, cap_images;
	char where[600];	/* HOST:PORT, then HOST:PORT/DIRNAME once placed */
	int sealed;		/* the stream ended with END */
};

static struct mirror_file *file_of(struct datadir_stream *s, const char *name)
{
	struct mirror_file *f;

	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->files[i].name, name))
			return &s->files[i];
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;

		f = realloc(s->files, cap * sizeof(*f));
		if (!f)
			return NULL;
		s->files = f;
		s->cap = cap;
	}
	f = &s->files[s->nr++];
	*f = (struct mirror_file){ .sent = -1 };
	snprintf(f->name, sizeof(f->name), "%s", name);
	return f;
}

/* [from, to) of the open file fd, in pieces, the first a FILE record if
 * it replaces the listener's copy: how far it was sent (a file read
 * shorter than it was sends the rest later), or -1 if the stream
 * refused it. */
static off_t send_range(struct sender *s, const char *name, int fd, off_t from, off_t to,
			int whole)
{
	static char buf[PIECE_BYTES];

	while (from < to || whole) {
		size_t want = to - from > PIECE_BYTES ? PIECE_BYTES : (size_t)(to - from);
		ssize_t n = pread(fd, buf, want, from);
		struct iovec iov = { buf, n > 0 ? (size_t)n : 0 };

		if (n < 0 || (n == 0 && !whole))
			break;
		if (sender_push(s, whole ? STREAM_FILE : STREAM_APPEND, name, &iov, 1, 1))
			return -1;
		from += n;
		whole = 0;
	}
	return from;
}

/* One file of the staging directory, if it changed since it was sent. */
static int mirror_file(struct datadir_stream *s, int dir_fd, const char *name)
{
	struct mirror_file *f;
	struct stat st;
	off_t end;
	int fd, whole;

	if (!stream_name_ok(name, strlen(name)) || !strcmp(name, "spare"))
		return 0;
	/* O_NONBLOCK: a fifo a process of the program left there never
	 * blocks the recorder */
	fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || !(f = file_of(s, name))) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	whole = f->sent < 0 || st.st_ino != f->ino || st.st_dev != f->dev || st.st_size < f->sent;
	end = f->sent;
	if (whole || st.st_size > f->sent)
		end = send_range(s->sender, name, fd, whole ? 0 : f->sent, st.st_size, whole);
	if (end >= 0) {
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		f->sent = end;
	}
	close(fd);
	return end < 0 ? -1 : 0;
}

/* Every file that changed, sent; a lost stream stops the writing. */
int datadir_stream_mirror(struct datadir *d)
{
	DIR *dh;
	struct dirent *e;
	int ret = 0;

	if (d->error)
		return -1;
	dh = opendir(d->tmp);
	if (!dh)
		return -1;
	while (!ret && (e = readdir(dh)))
		ret = mirror_file(d->stream, dirfd(dh), e->d_name);
	closedir(dh);
	if (sender_lost(d->stream->sender))
		datadir_stop_writing(d, sender_lost(d->stream->sender));
	return d->error ? -1 : 0;
}

/* The staging directory: $TMPDIR/fntrace-remote-PID.tmp-PID. */
int datadir_stream_create(struct datadir *d, const char *host, struct datadir_info *info)
{
	const char *tmp = getenv("TMPDIR");
	char staging[4096];
	struct sender *s = sender_open(host);

	if (!s)
		return -1;
	snprintf(staging, sizeof(staging), "%s/fntrace-remote-%d", tmp && *tmp ? tmp : "/tmp",
		 (int)getpid());
	if (datadir_create(d, staging, info)) {
		sender_close(s);
		return -1;
	}
	d->stream = calloc(1, sizeof(*d->stream));
	if (!d->stream) {
		sender_close(s);
		datadir_abandon(d);
		return -1;
	}
	d->stream->sender = s;
	snprintf(d->stream->where, sizeof(d->stream->where), "%s", host);
	if (datadir_stream_mirror(d) == 0)
		return 0;
	datadir_abandon(d);
	return -1;
}

int datadir_stream_begin(struct datadir *d, const char *prog, pid_t pid)
{
	return d->stream ? sender_begin(d->stream->sender, prog, (uint32_t)pid) : 0;
}

/* Has this process image been seen?  Noted if not. */
static int seen_image(struct datadir_stream *s, const struct ft_chunk *head)
{
	struct stream_image *im;

	for (size_t i = s->nr_images; i-- > 0;)
		if (s->images[i].pid == head->pid && s->images[i].image == head->image)
			return 1;
	if (s->nr_images == s->cap_images) {
		size_t cap = s->cap_images ? 2 * s->cap_images : 16;

		im = realloc(s->images, cap * sizeof(*im));
		if (!im)
			return 0;	/* mirrored each time, then */
		s->images = im;
		s->cap_images = cap;
	}
	s->images[s->nr_images++] = (struct stream_image){ head->pid, head->image };
	return 0;
}

/* The chunks of a process image go after its funcs file, which it wrote
 * before its first event: a stream cut anywhere has the table of every
 * process whose events it has. */
static void tables_first(struct datadir *d, const struct datadir_piece *p, unsigned n)
{
	int new = 0;

	for (unsigned i = 0; i < n; i++)
		new |= !seen_image(d->stream, &p[i].head);
	if (new)
		datadir_stream_mirror(d);
}

unsigned datadir_stream_chunks(struct datadir *d, const struct datadir_piece *p, unsigned n)
{
	struct iovec iov[2 * 64];
	size_t len = 0;
	unsigned k = n < 64 ? n : 64;

	tables_first(d, p, k);
	if (d->error)
		return 0;
	for (unsigned i = 0; i < k; i++) {
		iov[2 * i] = (struct iovec){ (void *)&p[i].head, sizeof(p[i].head) };
		iov[2 * i + 1] = (struct iovec){ (void *)p[i].events, p[i].head.used };
		len += sizeof(p[i].head) + p[i].head.used;
	}
	if (sender_push(d->stream->sender, STREAM_APPEND, "trace.dat", iov, 2 * k, 0)) {
		if (sender_lost(d->stream->sender))
			datadir_stop_writing(d, sender_lost(d->stream->sender));
		return 0;
	}
	d->size += len;
	return k;
}

/* The end of the stream: the files as they are now, END, and the
 * listener's answer.  The staging directory stays, for what the
 * recorder reads of it after (the names that matched nothing), until
 * datadir_stream_close(). */
int datadir_stream_seal(struct datadir *d)
{
	struct datadir_stream *s = d->stream;
	char name[256];

	s->sealed = 1;
	datadir_stream_mirror(d);
	if (!d->error && sender_finish(s->sender, name, sizeof(name)) == 0)
		snprintf(s->where + strlen(s->where), sizeof(s->where) - strlen(s->where), "/%s",
			 name);
	else if (!d->error)
		d->error = sender_lost(s->sender);
	snprintf(d->final, sizeof(d->final), "%s", d->tmp);
	return 0;
}

const char *datadir_stream_where(const struct datadir *d)
{
	return d->stream->where;
}

uint64_t datadir_stream_bytes(const struct datadir *d)
{
	return sender_bytes(d->stream->sender);
}

/* A recording abandoned (nothing traced, or a failure before it began)
 * leaves nothing on the listener either. */
void datadir_stream_close(struct datadir *d)
{
	if (!d->stream)
		return;
	if (!d->stream->sealed)
		sender_abort(d->stream->sender, "nothing traced, or a failure: said there");
	sender_close(d->stream->sender);
	free(d->stream->files);
	free(d->stream->images);
	free(d->stream);
	d->stream = NULL;
}
