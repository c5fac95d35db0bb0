/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data directory a recording produces.  It is written under a
 * temporary name and renamed into place at the end, so DIR is either the
 * previous recording or a complete new one, never half of one.
 *
 * Recording must never harm the program: when a write fails (disk full,
 * I/O error, the directory removed), nothing more is written, trace.dat
 * is cut back to its last whole chunk, and the directory is still sealed
 * with what fit, its info saying how the recording ended.  A spare file
 * holds back the room that last info needs.  Until it is sealed, the
 * directory has a provisional info, refreshed while recording, so that
 * what a killed recorder left is readable too.
 */
#ifndef FNTRACE_DATADIR_H
#define FNTRACE_DATADIR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/trace_format.h"
#include "../trace/counts.h"

struct datadir_info;
struct datadir_stream;

/* One segment of a recording with --max-size (datadir_cap.c). */
struct datadir_segment {
	unsigned number;	/* trace.dat.NUMBER */
	uint64_t bytes, chunks;
	struct tr_counts counts;	/* what its chunks hold */
	uint64_t first_time;	/* ticks: the earliest start of its chunks */
};

/* --max-size: the segments on disk, oldest first. */
struct datadir_cap {
	uint64_t segment_size;	/* a segment takes no chunk past it */
	struct datadir_segment *live;
	size_t nr_live, cap;
	unsigned next;		/* the number of the next segment */
	struct tr_counts counts;	/* what the segments removed held */
};

struct datadir {
	char final[4096];	/* DIR */
	char tmp[4096];		/* DIR.tmp-PID, absolute */
	int trace_fd;		/* tmp/trace.dat, or the newest segment */
	mode_t mode;		/* trace.dat's, info's too */
	uint64_t size;		/* of trace.dat, or the segments on disk:
				 * their headers and whole chunks */
	uint64_t file_size;	/* of the file trace_fd writes */
	struct datadir_cap cap;
	int error;		/* errno of the first failed write; 0: none */
	int unplaced;		/* sealed, but not renamed into place */
	struct datadir_info *info;	/* what info says, kept up to date
					 * by the recorder */
	struct datadir_stream *stream;	/* record --host; NULL: on disk */
};

struct clock_sync {
	uint64_t ticks[2];
	uint64_t ns[2];
};

/* What info says about a recording. */
struct datadir_info {
	char *command;		/* the command line, quoted (src/cli/quote.c) */
	const char *tracer;
	int pid;
	int retval;		/* funcgraph-retval */
	const char *filter;	/* filter expressions, one per line, or NULL */
	const char *notrace;
	unsigned depth;		/* max_graph_depth; 0: none */
	unsigned thresh;	/* tracing_thresh, microseconds; 0: none */
	int64_t started;	/* the wall clock at the start, Unix seconds */
	struct clock_sync clock;	/* the start, and the latest sample */
	struct clock_sync program_clock; /* the runtime's own, of the clock
					 * its events carry (ft_shm_clock):
					 * info gives these once there are */
	char exit[64];		/* how the program ended; "" if not known */
	uint64_t dropped;	/* events the recorder could not store */
	uint64_t unsaid;	/* events lost that no thread's trace says */
	uint64_t max_size;	/* --max-size, bytes; 0: none */
	char kevents[256];	/* -e as asked ("sched,syscalls:read"); "" none */
	struct tr_cut cut;	/* what it dropped */
	const char *extra;	/* more lines (a snapshot's), or NULL */
};

/* Create DIR.tmp-PID with trace.dat (its first segment, with
 * info->max_size) and a provisional info, with the first clock sample;
 * info stays the recorder's, read whenever the info file is written. */
int datadir_create(struct datadir *d, const char *dir, struct datadir_info *info);
/* One chunk record for trace.dat: its head (head.used: the bytes of
 * its events, in our byte order), its events, and what they hold. */
struct datadir_piece {
	struct ft_chunk head;
	const void *events;
	struct tr_counts n;
};

/* Append n chunk records to trace.dat, many to a system call, or to the
 * newest segment after making room; how many were written whole: n, or
 * fewer once a write has failed (d->error says why; nothing is said;
 * the file is cut back to its last whole chunk). */
unsigned datadir_write_chunks(struct datadir *d, const struct datadir_piece *p, unsigned n);
/* Replace the provisional info, with a new clock sample; a failure
 * stops the recording as a failed write does. */
int datadir_refresh(struct datadir *d);
/* Write the final info and rename into place (the old DIR becomes
 * DIR.old); -1 if that failed: said, but for a failure to write info,
 * which datadir_ending() then describes.  A directory removed while
 * recording is not brought back: what is left of it goes too. */
int datadir_seal(struct datadir *d);
/* How the recording ended early, e.g. "disk full after N bytes";
 * "" if it did not. */
const char *datadir_ending(const struct datadir *d, char *buf, size_t len);
/* info's text (the caller frees it), or NULL. */
char *datadir_info_text(const struct datadir *d, const struct datadir_info *info,
			int sealed);
/* DIR without its trailing slashes, into buf; -1 (said) for a name no
 * directory can have ("", "/"). */
int datadir_name(const char *dir, char *buf, size_t len);
/* Whether a recording can go to DIR, said if not: DIR and DIR.old must
 * not exist, or be recordings of fntrace's (which alone are replaced). */
int datadir_check_output(const char *dir);
/* TMP becomes DIR, the previous DIR (a recording) DIR.old; -1, said, if
 * TMP could not be placed, and then TMP is left where it is. */
int datadir_place(const char *tmp, const char *final);
/* NAME in the directory, new, its file header written, as the file
 * trace_fd writes (the one before is closed); -1 with errno set. */
int datadir_open_trace(struct datadir *d, const char *name);
/* A write failed (errno err): nothing more is written. */
void datadir_stop_writing(struct datadir *d, int err);

/* With --max-size (datadir_cap.c): the first segment; room for the
 * first of n chunk records, in a new segment if the newest is full, and
 * for as many after it as the newest segment takes, the oldest removed
 * while the total would pass the cap: how many (0 once a write failed);
 * a record written, counted in the newest; the segments forgotten. */
int datadir_cap_start(struct datadir *d);
unsigned datadir_cap_room(struct datadir *d, const struct datadir_piece *p, unsigned n);
void datadir_cap_note(struct datadir *d, const struct datadir_piece *p);
void datadir_cap_free(struct datadir *d);

/* record --host (datadir_remote.c): the directory recorded in a
 * staging directory and streamed to HOST:PORT as it is written, but for
 * trace.dat's chunks, which go to the stream only; 0, or -1 (said).  The
 * stream begins once the program's pid is known; mirror sends the files
 * that changed; seal ends the stream (d->error says if it was lost) and
 * leaves the staging directory as d->final until close, which removes
 * the stream (datadir_abandon() the directory too).  where: HOST:PORT,
 * and the listener's directory once it has it. */
int datadir_stream_create(struct datadir *d, const char *host, struct datadir_info *info);
int datadir_stream_begin(struct datadir *d, const char *prog, pid_t pid);
int datadir_stream_mirror(struct datadir *d);
unsigned datadir_stream_chunks(struct datadir *d, const struct datadir_piece *p, unsigned n);
int datadir_stream_seal(struct datadir *d);
const char *datadir_stream_where(const struct datadir *d);
uint64_t datadir_stream_bytes(const struct datadir *d);
void datadir_stream_close(struct datadir *d);

/* Does FILE in the directory (not a symlink) start with TAG (64 bytes at
 * most)? */
int datadir_file_starts(int dir_fd, const char *file, const char *tag);
/* Is PATH itself (not a symlink) a recording of ours: tagged info,
 * nothing but plain files? */
int datadir_is_recording(const char *path);
/* Remove a recording, found again by its name (never through a
 * symlink): it must still be one; -1 if it is not. */
int datadir_remove_recording(const char *path);
/* Remove a recording, or a flight recording's directory, of fntrace's,
 * found by its name (never through a symlink); -1 if it is not one. */
int datadir_remove_ours(const char *path);
/* Remove the temporary directory after a failure. */
void datadir_abandon(struct datadir *d);
/* Remove a directory of plain files. */
int datadir_remove(const char *dir);

#endif
