// SPDX-License-Identifier: GPL-2.0
/*
 * Writing funcs-<pid>.  Lines are appended in whole buffers with O_APPEND,
 * so a process that dies leaves complete lines behind; a module's lines
 * go in one buffer, one write (100 000 of them at a recording's start).
 * No stdio: after a fork() in a threaded program, its locks may be held
 * by a thread that no longer exists.
 */
#include "fds.h"
#include "funcs_file.h"
#include "ftrace.h"
#include "libcalls.h"
#include "recorder_files.h"
#include "../common/fileio.h"
#include "../common/trace_format.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir_path[PATH_MAX];

/* A module's lines go out in writes of up to OUT_SIZE bytes, never held
 * whole: 100 000 functions are 4 MB, and touching that much memory cost
 * more than forming the lines. */
#define OUT_SIZE 65536

struct out {
	char *buf;		/* NULL (out of memory): each line alone */
	size_t len;
};

/* Lines to the file, if its descriptor is still the file (a raw
 * close_range() passes our wrappers).  A failed write loses what it
 * held, and only that: the ids written before are still good, and the
 * recording goes on. */
static void write_lines(const char *lines, size_t len)
{
	int fd = ft_fd_checked(FT_FD_FUNCS);

	if (fd >= 0 && len)
		write_all(fd, lines, len);
}

static void flush(struct out *o)
{
	write_lines(o->buf, o->len);
	o->len = 0;
}

uint32_t ft_image;

/*
 * funcs-PID, or after an exec (the pid stays, the program is another one,
 * with ids of its own) the first funcs-PID.N that does not exist yet; N
 * is the image number every chunk carries.  A process that may no longer
 * create it, or no longer sees the directory (it changed its user or its
 * root since the recording started), has the recorder make it.
 */
static int create(void *path)
{
	return open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
}

static int from_recorder(void *unused)
{
	return ft_recorder_make_funcs(getpid(), &ft_image);
}

static int open_for_pid(void)
{
	char path[PATH_MAX + 48];
	int fd = -1;

	for (ft_image = 0; ft_image < 1000; ft_image++) {
		ft_funcs_path(path, sizeof(path), dir_path, getpid(), ft_image);
		fd = ft_fd_open(FT_FD_FUNCS, create, path, NULL);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0 && errno != EEXIST)
		fd = ft_fd_open(FT_FD_FUNCS, from_recorder, NULL, NULL);
	return fd < 0 ? -1 : 0;
}

/* The program itself has no call sites (an exec'd one, say): say so. */
void ft_funcs_note_untraced(const char *path)
{
	char line[PATH_MAX + 16];
	int n = snprintf(line, sizeof(line), "notraced %s\n", path);

	if (n > 0 && (size_t)n < sizeof(line))
		write_lines(line, n);
}

int ft_funcs_open(const char *dir)
{
	if (!dir || strlen(dir) >= sizeof(dir_path))
		return -1;
	strcpy(dir_path, dir);
	return open_for_pid();
}

/* Digits of v, in base 16 or 10, ending at end: where they begin. */
static char *digits(char *end, unsigned long v, unsigned base)
{
	do
		*--end = "0123456789abcdef"[v % base];
	while (v /= base);
	return end;
}

/* snprintf(line, size, "func %u %#lx %u %s\n", ...) without its cost,
 * which was most of writing a large module's lines. */
static size_t func_line(char *line, size_t size, uint32_t id, unsigned long func,
			unsigned idx, const char *name)
{
	char num[64], *end = num + sizeof(num), *p = end;
	size_t head, len;

	*--p = ' ';
	p = digits(p, idx, 10);
	*--p = ' ';
	p = digits(p, func, 16);
	if (func) {
		*--p = 'x';
		*--p = '0';
	}
	*--p = ' ';
	p = digits(p, id, 10);
	head = end - p;
	memcpy(line, "func ", 5);
	memcpy(line + 5, p, head);
	head += 5;
	/* Copied as it is measured: a strlen() and a memcpy() of the
	 * short names most functions have cost twice this. */
	for (len = 0; name[len] && len < size - head - 1; len++)
		line[head + len] = name[len];
	line[head + len] = '\n';
	return head + len + 1;
}

#define NAME_AHEAD 64

/* Its library calls bound so far, each of the module it reaches. */
static void libcall_lines(const struct ft_module *mod, char *line, size_t size,
			  void (*emit)(void *, const char *, size_t), void *arg)
{
	for (uint32_t i = 0; i < mod->nr_libcalls; i++) {
		uint32_t id = mod->first_libcall + i;
		int callee = ftrace_libcall_callee(id);

		if (callee >= 0)
			emit(arg, line, func_line(line, size, id,
						  (unsigned long)ftrace_rec_get(id)->func,
						  (unsigned)callee, ftrace_rec_get(id)->name));
	}
}

/* One module's lines, each handed to emit. */
static void module_lines(unsigned idx, void (*emit)(void *, const char *, size_t), void *arg)
{
	const struct ft_module *mod = ftrace_module_get(idx);
	char line[1024];
	int n;

	n = snprintf(line, sizeof(line), "module %u %#lx %#lx %#lx %s\n", idx,
		     (unsigned long)mod->bias, (unsigned long)mod->start,
		     (unsigned long)mod->end, mod->path);
	emit(arg, line, n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1);
	for (uint32_t i = 0; i < mod->nr_recs; i++) {
		const struct ftrace_rec *rec = ftrace_rec_get(mod->first_id + i);

		/* The names lie in the symbol table's order, not the records':
		 * each was a cache miss, waited for alone. */
		if (i + NAME_AHEAD < mod->nr_recs)
			__builtin_prefetch(ftrace_rec_get(mod->first_id + i + NAME_AHEAD)->name);
		emit(arg, line, func_line(line, sizeof(line), mod->first_id + i,
					  (unsigned long)rec->func, idx, rec->name));
	}
	libcall_lines(mod, line, sizeof(line), emit, arg);
	for (uint32_t i = 0; i < mod->nr_detours; i++) {
		const struct ftrace_rec *rec = ftrace_rec_get(mod->first_detour + i);

		emit(arg, line, func_line(line, sizeof(line), mod->first_detour + i,
					  (unsigned long)rec->func, idx, rec->name));
	}
}

/* A line is at most module_lines' 1024 bytes. */
static void to_file(void *arg, const char *line, size_t len)
{
	struct out *o = arg;

	if (!o->buf) {
		write_lines(line, len);
		return;
	}
	if (o->len + len > OUT_SIZE)
		flush(o);
	memcpy(o->buf + o->len, line, len);
	o->len += len;
}

void ft_funcs_write_module(unsigned idx)
{
	struct out o = { NULL, 0 };

	/* A module not read yet is written when it is. */
	if (ft_fd(FT_FD_FUNCS) < 0 || !ftrace_module_get(idx) || ftrace_module_get(idx)->deferred)
		return;
	o.buf = malloc(OUT_SIZE);
	module_lines(idx, to_file, &o);
	flush(&o);
	free(o.buf);
}

void ft_funcs_write_rec(uint32_t id, unsigned idx)
{
	const struct ftrace_rec *rec = ftrace_rec_get(id);
	char line[1024];

	if (ft_fd(FT_FD_FUNCS) >= 0)
		write_lines(line, func_line(line, sizeof(line), id, (unsigned long)rec->func, idx,
					    rec->name));
}

/* Every module, the unloaded ones too: the buffer may still hold events of
 * their functions, as funcs-PID does for a recorder. */
void ft_funcs_emit(void (*emit)(void *arg, const char *line, size_t len), void *arg)
{
	for (unsigned i = 0; i < ftrace_module_count(); i++)
		module_lines(i, emit, arg);
}

/* funcs-PID[.IMAGE] of the recording, as written so far, up to its last
 * whole line. */
static int emit_file(uint32_t pid, uint32_t image,
		     void (*emit)(void *arg, const char *line, size_t len), void *arg)
{
	char path[PATH_MAX + 48], buf[65536];
	size_t have = 0;
	ssize_t n;
	int in;

	ft_funcs_path(path, sizeof(path), dir_path, pid, image);
	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	while ((n = read(in, buf + have, sizeof(buf) - have)) > 0 || (n < 0 && errno == EINTR)) {
		char *end;

		have += n > 0 ? n : 0;
		end = memrchr(buf, '\n', have);
		if (!end && have < sizeof(buf))
			continue;
		if (!end)		/* no line is that long: not ours */
			break;
		emit(arg, buf, end + 1 - buf);
		have -= end + 1 - buf;
		memmove(buf, end + 1, have);
	}
	close(in);
	return 0;
}

/*
 * The table of another process that fills the same buffer: a recording
 * has its file; else it is a child forked since the attach, whose ids are
 * ours as of the fork (a module it loads after that is unknown here).
 */
int ft_funcs_emit_for(uint32_t pid, uint32_t image,
		      void (*emit)(void *arg, const char *line, size_t len), void *arg)
{
	int ours = pid == (uint32_t)getpid() && image == ft_image;

	if (!ours && ft_fd(FT_FD_FUNCS) >= 0)
		return emit_file(pid, image, emit, arg);
	if (!ours && image != ft_image)
		return -1;
	ft_funcs_emit(emit, arg);
	return 0;
}

void ft_funcs_reopen_after_fork(void)
{
	if (ft_fd(FT_FD_FUNCS) < 0)
		return;
	ft_fd_release(FT_FD_FUNCS);
	if (open_for_pid())
		return;
	for (unsigned i = 0; i < ftrace_module_count(); i++)
		if (!ftrace_module_get(i)->gone)
			ft_funcs_write_module(i);
}

static void write_line(void *arg, const char *line, size_t len)
{
	write_all(*(const int *)arg, line, len);
}

/* A vfork() child's calls are its own: its table, ours as it is now,
 * under its pid, written before it may exec into an image of its own.
 * The variables here are its parent's, in the memory they share. */
void ft_funcs_write_for_child(void)
{
	char path[PATH_MAX + 48];
	int out;

	/* Not recording.  (A plain descriptor, not a slot's: the slots are
	 * the parent's, in the memory the child shares until it execs.) */
	if (ft_fd(FT_FD_FUNCS) < 0)
		return;
	ft_funcs_path(path, sizeof(path), dir_path, getpid(), ft_image);
	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
	if (out < 0)
		return;
	ft_funcs_emit(write_line, &out);
	close(out);
}
