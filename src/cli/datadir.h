/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data directory a recording produces.  It is written under a
 * temporary name and renamed into place at the end, so DIR is either the
 * previous recording or a complete new one, never half of one.
 */
#ifndef FNTRACE_DATADIR_H
#define FNTRACE_DATADIR_H

#include <stddef.h>
#include <stdint.h>

struct datadir {
	char final[4096];	/* DIR */
	char tmp[4096];		/* DIR.tmp-PID, absolute */
	int trace_fd;		/* tmp/trace.dat */
};

struct clock_sync {
	uint64_t ticks[2];
	uint64_t ns[2];
};

int datadir_create(struct datadir *d, const char *dir);
/* Append one chunk record to trace.dat. */
int datadir_write(struct datadir *d, const void *head, size_t head_len,
		  const void *data, size_t len);
/* Write info and rename into place (the old DIR becomes DIR.old). */
int datadir_finish(struct datadir *d, const char *info);
/* Remove the temporary directory after a failure. */
void datadir_abandon(struct datadir *d);
/* Remove a directory of plain files. */
int datadir_remove(const char *dir);

/* One (clock ticks, CLOCK_MONOTONIC ns) sample. */
void clock_sample(uint64_t *ticks, uint64_t *ns);

#endif
