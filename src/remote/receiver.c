// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace listen: one stream into one data directory (receiver.h).
 *
 * A record is applied only once it has come whole, so a connection cut
 * anywhere leaves trace.dat ending on a whole batch of chunks (the
 * target sends whole chunks only) and the info file the last one the
 * target sent, to which a line is added: `stream: connection lost after
 * N bytes`.  A stream that breaks the format (a bad header, a record of
 * no known type, a name that is not a plain file's) is dropped at once,
 * said in one line naming the peer, and what it had sent is kept the
 * same way, if it had sent an info, else removed.
 */
#include "receiver.h"
#include "stream.h"
#include "../common/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct rx {
	struct receiver *r;
	struct stream_header h;
	char base[600], name[640], tmp[680];
	int dir_fd;		/* the temporary directory */
	uint64_t bytes;		/* received */
	uint8_t *buf;		/* a record's bytes */
	size_t cap;
	int has_info;		/* an info file came */
	int info_nl;		/* and it ends a line */
	char open_name[STREAM_NAME_MAX + 1];	/* appended to last */
	int open_fd;
	char why[300];		/* how the stream ended, if it broke off */
};

static void say(const struct rx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One line, whole, even with other connections' threads saying theirs. */
static void say(const struct rx *x, const char *fmt, ...)
{
	char line[1200];
	va_list ap;
	int n = snprintf(line, sizeof(line), "fntrace: listen: %s: ", x->r->peer);

	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	strcat(line, "\n");
	write_all(2, line, strlen(line));
}

static void broke(struct rx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void broke(struct rx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->why, sizeof(x->why), fmt, ap);
	va_end(ap);
}

/* len bytes, or -1 once the connection ended (why said). */
static int take(struct rx *x, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = read(x->r->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			broke(x, "%s after %llu bytes",
			      x->r->stopping ? "the listener stopped" : "connection lost",
			      (unsigned long long)x->bytes);
			return -1;
		}
		x->bytes += n;
		p += n;
		len -= n;
	}
	return 0;
}

/* Bytes a peer sent, printable in one line. */
static void printable(char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
}

static int take_header(struct rx *x)
{
	uint8_t fixed[STREAM_HEADER_FIXED];
	unsigned host_len, prog_len;
	const char *why;

	if (take(x, fixed, sizeof(fixed)))
		return -1;
	if (stream_get_header(fixed, &x->h, &host_len, &prog_len, &why)) {
		broke(x, "%s", why);
		return -1;
	}
	if (take(x, x->h.host, host_len) || take(x, x->h.prog, prog_len))
		return -1;
	x->h.host[host_len] = x->h.prog[prog_len] = '\0';
	/* said in the listener's lines: no escape sequence reaches its
	 * terminal */
	printable(x->h.host);
	printable(x->h.prog);
	return 0;
}

/* NAME.tmp-PID, for the first NAME, HOST-PROG-PID or HOST-PROG-PID-N,
 * that neither a directory of DIR nor another connection has: mkdir is
 * what reserves it. */
static int make_dir(struct rx *x)
{
	char host[STREAM_TEXT_MAX + 1], prog[STREAM_TEXT_MAX + 1];
	struct stat st;

	memcpy(host, x->h.host, sizeof(host));
	memcpy(prog, x->h.prog, sizeof(prog));
	stream_safe_text(host);
	stream_safe_text(prog);
	snprintf(x->base, sizeof(x->base), "%s-%s-%u", host, prog, x->h.pid);
	for (unsigned n = 0;; n++) {
		if (n == 10000) {
			broke(x, "no free name for %s in %s", x->base, x->r->out);
			return -1;
		}
		if (n)
			snprintf(x->name, sizeof(x->name), "%s-%u", x->base, n);
		else
			snprintf(x->name, sizeof(x->name), "%s", x->base);
		snprintf(x->tmp, sizeof(x->tmp), "%s.tmp-%d", x->name, (int)getpid());
		if (fstatat(x->r->out_fd, x->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			continue;
		if (mkdirat(x->r->out_fd, x->tmp, 0755) == 0)
			break;
		if (errno != EEXIST) {
			broke(x, "cannot create %s/%s: %s", x->r->out, x->tmp, strerror(errno));
			return -1;
		}
	}
	x->dir_fd = openat(x->r->out_fd, x->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (x->dir_fd < 0)
		broke(x, "cannot open %s/%s: %s", x->r->out, x->tmp, strerror(errno));
	return x->dir_fd < 0 ? -1 : 0;
}

static void close_open(struct rx *x)
{
	if (x->open_fd >= 0)
		close(x->open_fd);
	x->open_fd = -1;
	x->open_name[0] = '\0';
}

/* The file NAME of the directory, for a FILE record (emptied) or an
 * APPEND; an append keeps it open for the next. */
static int file_fd(struct rx *x, const char *name, int replace)
{
	if (!replace && !strcmp(x->open_name, name))
		return x->open_fd;
	close_open(x);
	x->open_fd = openat(x->dir_fd, name,
			    O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
			    (replace ? O_TRUNC : O_APPEND), 0644);
	if (x->open_fd >= 0)
		snprintf(x->open_name, sizeof(x->open_name), "%s", name);
	return x->open_fd;
}

static int apply(struct rx *x, unsigned type, const char *name, uint32_t len)
{
	int fd = file_fd(x, name, type == STREAM_FILE);

	if (fd < 0 || write_all(fd, x->buf, len)) {
		broke(x, "cannot write %s/%s/%s: %s", x->r->out, x->tmp, name, strerror(errno));
		return -1;
	}
	if (!strcmp(name, "info") && (len || type == STREAM_FILE)) {
		x->has_info = 1;
		x->info_nl = len && x->buf[len - 1] == '\n';
	}
	return 0;
}

static int grow(struct rx *x, uint32_t len)
{
	uint8_t *buf;

	if (len <= x->cap)
		return 0;
	buf = realloc(x->buf, len);
	if (!buf) {
		broke(x, "out of memory for a record of %u bytes", len);
		return -1;
	}
	x->buf = buf;
	x->cap = len;
	return 0;
}

/* One record: 1 for END, 2 for ABORT (its line in why), 0 for another,
 * -1 when the stream ends or breaks. */
static int take_record(struct rx *x)
{
	uint8_t fixed[STREAM_RECORD_FIXED];
	char name[STREAM_NAME_MAX + 1];
	unsigned type, name_len;
	uint32_t len;
	const char *why;

	if (take(x, fixed, sizeof(fixed)))
		return -1;
	if (stream_get_record(fixed, &type, &name_len, &len, &why)) {
		broke(x, "bad stream: %s", why);
		return -1;
	}
	if (type == STREAM_END)
		return 1;
	if (type == STREAM_ABORT) {
		char why[STREAM_ABORT_MAX + 1];

		if (take(x, why, len))
			return -1;
		why[len] = '\0';
		printable(why);
		broke(x, "the target abandoned the recording (%s)", why);
		return 2;
	}
	if (take(x, name, name_len))
		return -1;
	name[name_len] = '\0';
	if (!stream_name_ok(name, name_len)) {
		printable(name);
		broke(x, "bad stream: '%s' is not the name of a file of a data directory", name);
		return -1;
	}
	if (grow(x, len) || take(x, x->buf, len))
		return -1;
	return apply(x, type, name, len) ? -1 : 0;
}

/* NAME.tmp-PID into place as NAME, or the next free NAME-N. */
static int place(struct rx *x)
{
	while (renameat2(x->r->out_fd, x->tmp, x->r->out_fd, x->name, RENAME_NOREPLACE)) {
		unsigned n = 0;

		if (errno != EEXIST && errno != ENOTEMPTY)
			return -1;
		if (strcmp(x->name, x->base))
			sscanf(x->name + strlen(x->base), "-%u", &n);
		snprintf(x->name, sizeof(x->name), "%s-%u", x->base, n + 1);
	}
	return 0;
}

/* A directory that got no info is no recording: its files, then it. */
static void remove_dir(struct rx *x)
{
	int fd = dup(x->dir_fd);
	DIR *dh = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;

	close_open(x);
	while (dh && (e = readdir(dh)))
		if (e->d_name[0] != '.')
			unlinkat(x->dir_fd, e->d_name, 0);
	if (dh)
		closedir(dh);
	else if (fd >= 0)
		close(fd);
	unlinkat(x->r->out_fd, x->tmp, AT_REMOVEDIR);
}

/* END: in place, and the target told where. */
static void finish_complete(struct rx *x)
{
	char answer[700];

	close_open(x);
	if (!x->has_info) {
		broke(x, "bad stream: it ended with no info file");
		return;
	}
	if (place(x)) {
		broke(x, "cannot rename %s/%s: %s", x->r->out, x->tmp, strerror(errno));
		return;
	}
	x->r->complete = 1;
	snprintf(answer, sizeof(answer), "ok %s\n", x->name);
	write_all(x->r->fd, answer, strlen(answer));
	say(x, "%s %s[%u] recorded, %llu bytes -> %s/%s", x->h.host, x->h.prog, x->h.pid,
	    (unsigned long long)x->bytes, x->r->out, x->name);
}

/* A stream that broke off: the last info it sent, with a line on how,
 * and what arrived in place; nothing kept without an info. */
static void finish_broken(struct rx *x)
{
	char line[400];
	int fd;

	close_open(x);
	if (!x->has_info) {
		remove_dir(x);
		say(x, "%s; nothing kept", x->why);
		return;
	}
	snprintf(line, sizeof(line), "%sstream: %s\n", x->info_nl ? "" : "\n", x->why);
	fd = openat(x->dir_fd, "info", O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || write_all(fd, line, strlen(line)) || close(fd) || place(x)) {
		say(x, "%s; cannot keep what arrived in %s/%s: %s", x->why, x->r->out, x->tmp,
		    strerror(errno));
		return;
	}
	say(x, "%s %s[%u]: %s; what arrived is in %s/%s", x->h.host, x->h.prog, x->h.pid,
	    x->why, x->r->out, x->name);
}

void receiver_run(struct receiver *r)
{
	struct rx x = { .r = r, .dir_fd = -1, .open_fd = -1 };
	int end = 0;

	if (take_header(&x)) {
		if (x.bytes)	/* a connection that sent nothing is no stream */
			say(&x, "%s; connection dropped", x.why);
		return;
	}
	r->had_header = 1;
	if (make_dir(&x)) {
		say(&x, "%s; connection dropped", x.why);
		return;
	}
	while (!(end = take_record(&x)))
		;
	if (end == 1)
		finish_complete(&x);
	if (end == 2) {
		remove_dir(&x);
		say(&x, "%s %s[%u]: %s; nothing kept", x.h.host, x.h.prog, x.h.pid, x.why);
	} else if (!r->complete) {
		finish_broken(&x);
	}
	close(x.dir_fd);
	free(x.buf);
}
