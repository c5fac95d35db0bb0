/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fntrace export: a recorded trace in a format other tools read.  Each
 * format is one file, export_<name>.c, with one entry in the table of
 * export.c.  Every format streams: it reads the trace thread by thread
 * (calls.h), and holds at most what its output needs aggregated (the
 * distinct stacks of a flame graph), never the events.
 *
 * Output goes to a temporary file renamed into place at the end, so a
 * failed export leaves no half-written file; or to stdout.  A format that
 * splits its output (--split) ends a file with export_next_piece(): the
 * pieces too keep their temporary names until the whole export has
 * succeeded, then all are renamed, so there is never half a set either.
 */
#ifndef FNTRACE_EXPORT_H
#define FNTRACE_EXPORT_H

#include "trace_reader.h"

#include <stdint.h>
#include <stdio.h>

struct export_options {
	const char *input;		/* the data directory */
	const char *output;		/* NULL: stdout */
	const char *format;
	uint64_t split_bytes;		/* chrome: a new file past this size; 0: one */
	int srcline;			/* add file:line from DWARF where known */
	const uint32_t *tids;		/* only these threads, if nr_tids > 0 */
	unsigned nr_tids;
};

/* An output file: stdout, or a temporary file next to path until the
 * export, whole, renames it over path. */
struct export_file {
	FILE *f;
	char *path;			/* NULL: stdout */
	char *tmp;			/* NULL: path is written in place (a
					 * device, a FIFO) or already renamed */
};

struct export {
	struct trace_data td;
	const struct export_options *opt;
	const struct tr_thread **threads;	/* the selected ones, in td order */
	unsigned nr_threads;
	struct export_file out;		/* opened on opt->output before write() */
	struct tr_srclines *srclines;	/* with --srcline, for tr_srcline()
					 * (srcline.h); else NULL */
	struct tr_arg_names *arg_names;	/* what the specs call the values
					 * (arg_names.h), or NULL */
	struct export_file *pieces;	/* --split: the files before out, closed */
	unsigned nr_pieces;
	size_t cap_pieces;
};

struct export_format {
	const char *name;
	const char *what;		/* one line for --help */
	/* Writes the trace to ex->out.f (or to files of its own, for a
	 * split); 0, or -1 after one line to the printer. */
	int (*write)(struct export *ex);
	int splits;			/* takes --split (export_next_piece) */
};

extern const struct export_format export_formats[];

/* The formats' writers, one file each: export_<name>.c. */
int export_chrome(struct export *ex);
int export_folded(struct export *ex);
int export_svg(struct export *ex);
int export_perfetto(struct export *ex);


/* --split: closes ex->out, kept with the pieces, and opens the next file,
 * OUTPUT.1, OUTPUT.2 ...; 0, or -1 after one line to the printer. */
int export_next_piece(struct export *ex);

/* Options that make no sense together (an unknown format, --split where
 * it cannot be): 0, or -1 and why, for the command line to say. */
int export_check_options(const struct export_options *o, char *why, size_t len);
/* Runs the export o asks for: 0, or 1 after one line to the printer. */
int export_run(const struct export_options *o);

#endif
