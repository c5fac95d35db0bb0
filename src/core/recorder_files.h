/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Asking the recorder for a file of the data directory, for when we no
 * longer may or can open it (after setuid, chroot, pivot_root).
 */
#ifndef FNTRACE_RECORDER_FILES_H
#define FNTRACE_RECORDER_FILES_H

#include <stdint.h>

/* The recorder's end, as FNTRACE_FILES_FD names it (NULL: none). */
void ft_recorder_files_init(const char *fd);
/* A new funcs-PID[.IMAGE], made by the recorder, the first image of the
 * pid that has none: its fd (append-only), and *image; or -1 with errno
 * set. */
int ft_recorder_make_funcs(uint32_t pid, uint32_t *image);
/* The data directory's args file, read through the recorder (malloc'd),
 * or NULL. */
char *ft_recorder_read_args(void);

#endif
