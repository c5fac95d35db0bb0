/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One packet with at most one descriptor along (SCM_RIGHTS), for the
 * recorder's file service (src/core/recorder_files.c,
 * src/record/file_service.c).
 */
#ifndef FNTRACE_FDPASS_H
#define FNTRACE_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

/* text, and fd unless it is -1; flags as send()'s.  -1 with errno. */
int fdpass_send(int sock, const char *text, int fd, int flags);
/* One packet into text (NUL-terminated, at most size - 1 bytes) and the
 * first descriptor it carried into *fd (-1 if none; any more are
 * closed).  Its length, 0 at the end, -1 with errno. */
ssize_t fdpass_recv(int sock, char *text, size_t size, int *fd, int flags);

#endif
