/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder makes files of the data directory for the processes it
 * records that no longer may or can (after setuid, chroot, pivot_root);
 * the protocol is in src/core/recorder_files.c.
 */
#ifndef FNTRACE_FILE_SERVICE_H
#define FNTRACE_FILE_SERVICE_H

struct datadir;

struct file_service {
	int ours;		/* non-blocking, close-on-exec */
	int theirs;		/* for the program to inherit; -1 once it has */
};

int file_service_open(struct file_service *s);
/* The program has its end: the recorder closes its copy. */
void file_service_started(struct file_service *s);
/* Answer every request waiting, without waiting for more. */
void file_service_serve(struct file_service *s, const struct datadir *d);
void file_service_close(struct file_service *s);

#endif
