/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole reads and writes, and files replaced in one step.  The runtime
 * uses them too, inside the traced process: they say nothing and never
 * exit; failures are -1 with errno set.
 */
#ifndef FNTRACE_FILEIO_H
#define FNTRACE_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

struct iovec;

/* All len bytes, through interruptions and short counts; -1 if a write
 * fails (what was written before stays written). */
int write_all(int fd, const void *buf, size_t len);
/* All of iov's n pieces, in as few system calls as the kernel allows,
 * through interruptions and short counts (iov is used up on the way); -1
 * if a write fails (what was written before stays written). */
int writev_all(int fd, struct iovec *iov, int n);
/* Exactly len bytes; -1 if a read fails or the file ends first. */
int read_all(int fd, void *buf, size_t len);
/* A regular file's whole content, NUL-terminated (malloc'd); NULL if it
 * cannot be read. */
char *read_text_file(const char *path);
/* The same, of a file opened for it (read from its start). */
char *read_text_fd(int fd);
/* A file whose size says nothing (/proc's), read to its end: its bytes,
 * NUL-terminated, their number in *len; NULL if it cannot be opened or
 * memory runs out.  A read that fails ends it, what came before kept
 * (a process that ended meanwhile). */
char *read_proc_file(const char *path, size_t *len);
/* path's content becomes data, with permissions mode, in one step: a
 * reader sees the old file or the new one, never half of one.  On
 * failure path is as it was and nothing else is left behind. */
int replace_file(const char *path, const void *data, size_t len, mode_t mode);

#endif
