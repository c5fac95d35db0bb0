/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracing state a user controls, with the kernel's tracefs meanings:
 * current_tracer, the filter files, max_graph_depth, tracing_thresh,
 * tracing_on.  Used by
 * start-up (a recorder's request) and by the control endpoint.  Callers
 * hold ftrace_lock().
 */
#ifndef FNTRACE_TRACING_H
#define FNTRACE_TRACING_H

#include <stddef.h>

#include "../common/filter.h"

struct ftrace_rec;

enum ft_filter_file {
	FT_FILTER,		/* set_ftrace_filter */
	FT_NOTRACE,		/* set_ftrace_notrace */
	FT_GRAPH_FUNCTION,	/* set_graph_function */
	FT_GRAPH_NOTRACE,	/* set_graph_notrace */
	FT_FILTER_FILES
};

extern int ft_tracing_on;	/* tracing_on: events are written */

/* Why an update failed, for the user, after what was not done: tracing
 * went off for good, or a thread could not be synced (the update was
 * undone). */
void ft_update_failed(char *err, size_t errlen, const char *what);

/* current_tracer: "nop", "function" or "function_graph". */
int ft_tracer_set(const char *name, char *err, size_t errlen);
const char *ft_tracer_name(void);
/* The tracers there are, as available_tracers lists them. */
const char *ft_tracers_available(void);

/* Replace (append = 0) or extend a filter file with expressions separated
 * by white space.  An expression that matches no function of a loaded
 * module (and has no :mod: for a module not loaded yet) is refused, and
 * nothing changes, as the kernel refuses it with EINVAL. */
int ft_filter_write(enum ft_filter_file which, const char *text, int append,
		    char *err, size_t errlen);
/* The same without the match check: for filters given before start-up,
 * which may name functions of libraries loaded later. */
int ft_filter_preset(enum ft_filter_file which, const char *text, char *err, size_t errlen);
const struct filter *ft_filter_get(enum ft_filter_file which);
/* Does the filter file select this function (graph files: "match")? */
int ft_filter_selects(enum ft_filter_file which, const struct ftrace_rec *rec,
		      const char *module);

/* function_profile_enabled */
int ft_profile_set(int on, char *err, size_t errlen);
int ft_profile_enabled(void);

/* max_graph_depth (0: no limit), and the funcgraph-retval option. */
void ft_graph_set_depth(unsigned depth);
void ft_graph_set_retval(int on);
/* tracing_thresh, in microseconds (0: off): function_graph writes only
 * calls that lasted at least that long, whole, at their exit (thresh.c).
 * Setting it the first time takes a millisecond: the clock's rate is
 * measured. */
void ft_graph_set_thresh(unsigned us);
unsigned ft_graph_thresh(void);

#endif
