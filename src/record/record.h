/* SPDX-License-Identifier: GPL-2.0 */
/*
 * src/record/: the recorder.  Start a program with the runtime preloaded
 * (recorder.c), or take over a running one's buffer (record_attach.c),
 * drain its per-thread buffers into a data directory (drain.c,
 * datadir*.c, file_service.c), pass its exit status on, and say what
 * went untraced (record_untraced.c, record_names.c).  Shared by `record`
 * and `live`.
 */
#ifndef FNTRACE_RECORD_H
#define FNTRACE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../kevents/kevents.h"

struct record_options {
	const char *tracer;		/* "function" or "function_graph" */
	char *filter;			/* filter expressions, one per line */
	char *notrace;
	unsigned depth;			/* max_graph_depth; 0: none */
	unsigned thresh;		/* tracing_thresh, microseconds; 0: none */
	unsigned buffer_kb;		/* shared memory for the buffers */
	int retval;			/* funcgraph-retval */
	char *args;			/* set_ftrace_args: -A/-R specs, one per line */
	int auto_args;			/* --auto-args: specs from the DWARF too */
	char *triggers;			/* --trigger: function triggers, one per line */
	const char *snap_interval;	/* --snapshot-interval, ms; NULL: the
					 * runtime's default */
	const char *output;		/* the data directory */
	int output_given;		/* -o was given */
	const char *host;		/* --host: streamed to a listener at
					 * HOST:PORT instead */
	char **argv;			/* the program and its arguments */
	int transient;			/* live: output goes once reported, so
					 * the summary line names no directory */
	pid_t pid;			/* -p: a running process instead */
	uint64_t duration_ns;		/* -d: how long to record it; 0: until Ctrl-C */
	unsigned answer_timeout;	/* --timeout: seconds it may take to answer;
					 * 0: ctl's default */
	uint64_t max_size;		/* --max-size: the newest bytes of trace
					 * kept; 0: all of it */
	int overwrite;			/* --overwrite: flight recording, a data
					 * directory per snapshot (flight.h) */
	const char *snapshot_signal;	/* --snapshot-signal: its name, or NULL */
	struct kev_request kevents;	/* -e: the kernel's events too */
};

/* Parse record options up to the program; returns the index of the
 * program in argv, 0 after --help, -1 on a bad option (already said). */
int record_parse(int argc, char **argv, struct record_options *o,
		 const char *usage);
/* Run and record; returns the exit status to pass on, or -1 if the
 * program could not be recorded (already said). */
int record_run(const struct record_options *o);
/* Record a running process (record -p); 0, or -1 (said). */
int record_attach(const struct record_options *o);
struct cli_target;
/* o's -e, its system calls in the numbering of t's calls, into req; 0,
 * or -1 after one line (a name t has no call of). */
int record_kevents_for(const struct record_options *o, const struct cli_target *t,
		       struct kev_request *req);
/* Free what record_parse() allocated. */
void record_options_free(struct record_options *o);
/* The status fntrace itself should exit with for a wait() status. */
int record_exit_code(int wait_status);
/* A wait() status as a data directory's info says it: "status 3",
 * "signal 11 SIGSEGV (core dumped)". */
void record_describe_exit(int status, char *buf, size_t len);

/* The settings record -p changes, as the process had them
 * (record_settings.c): read before, written back after. */
#define NR_KEPT_SETTINGS 9
struct record_settings {
	char *value[NR_KEPT_SETTINGS];
	char *triggers;			/* set_ftrace_filter's, a line each */
};
int record_settings_save(pid_t pid, struct record_settings *s);
int record_settings_restore(pid_t pid, const struct record_settings *s);
void record_settings_free(struct record_settings *s);
/* The process's function triggers replaced by these (a line each; NULL:
 * none); 0, or -1 after a line on why. */
int record_triggers_set(pid_t pid, const char *triggers);

/* What a recording knows of how the program ran, afterwards. */
struct record_untraced {
	const char *dir;		/* the data directory, not sealed yet */
	const char *argv0;		/* the program as the user named it */
	const char *path;		/* and its file */
	int has_sites;			/* the program itself had call sites */
	int killed;			/* a runtime switched its tracing off */
	uint64_t events;		/* events recorded */
	int filtered;			/* -F was given: detours may be named */
};
/* Did nothing trace?  1 after one line that says why, else 0
 * (record_untraced.c). */
int record_untraced(const struct record_untraced *u);

/* After a recording in DIR: each -F, -N, -A or -R name that matched no
 * function of any process recorded, said in one line, but those in said
 * (a line each), said before the run (record_names.c). */
void record_say_unmatched(const char *dir, const struct record_options *o,
			  const char *no_libcalls, const char *said);

#endif
