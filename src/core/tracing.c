// SPDX-License-Identifier: GPL-2.0
/*
 * current_tracer, the filter files, function_profile_enabled.  Each change
 * is applied to copies first and patched in by ftrace_update(); if any
 * step fails the old state stays, as a failed tracefs write leaves it.
 */
#include "thread.h"
#include "tracing.h"
#include "buffer.h"
#include "events.h"
#include "ftrace.h"
#include "plain_names.h"
#include "profile.h"
#include "snapshot_ctl.h"
#include "sync.h"
#include "tracers.h"
#include "triggers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ft_tracing_on = 1;

static struct filter filters[FT_FILTER_FILES];

static const struct tracer {
	const char *name;
	ftrace_func_t func;
	unsigned flags;
} tracers[] = {
	{ "nop", NULL, 0 },
	{ "function", function_trace_call, 0 },
	{ "function_graph", NULL, FTRACE_OPS_FL_GRAPH },
};

static const struct tracer *current = &tracers[0];
static struct ftrace_ops trace_ops = {
	.filter = &filters[FT_FILTER],
	.notrace = &filters[FT_NOTRACE],
};

const char *ft_tracers_available(void)
{
	return "function_graph function nop";
}

const char *ft_tracer_name(void)
{
	return current->name;
}

/* What a tracer or the profiler needs before its hooks run: the trace
 * buffer (the per-thread state exists only in a process that has one),
 * and that state for the threads there are. */
int ft_get_ready(char *err, size_t errlen)
{
	if (ft_buffer_create()) {
		snprintf(err, errlen, "cannot make a trace buffer");
		return -1;
	}
	ft_threads_prepare();
	return 0;
}

void ft_update_failed(char *err, size_t errlen, const char *what)
{
	if (ftrace_killed())
		snprintf(err, errlen, "%s: tracing is off: %s", what,
			 ftrace_kill_reason()[0] ? ftrace_kill_reason() : "an internal fault");
	else
		snprintf(err, errlen, "%s: %s", what, ftrace_sync_failure());
}

/* current_tracer's ops, for tracer t. */
static void use_tracer(const struct tracer *t)
{
	current = t;
	trace_ops.func = t->func;
	trace_ops.flags = t->flags;
	ft_graph.trace = t->flags & FTRACE_OPS_FL_GRAPH;
}

/* The switch from old to t: the old tracer's ops out, t's in.  If t's
 * cannot come in, the old one's goes back: -1.  That update may fail too:
 * then no tracer is on, current_tracer says nop, and -2. */
static int switch_tracer(const struct tracer *old, const struct tracer *t)
{
	if (old != &tracers[0] && unregister_ftrace_ops(&trace_ops))
		return -1;
	use_tracer(t);
	if (t == &tracers[0] || register_ftrace_ops(&trace_ops) == 0)
		return 0;
	use_tracer(old);
	if (old == &tracers[0] || register_ftrace_ops(&trace_ops) == 0)
		return -1;
	use_tracer(&tracers[0]);
	return -2;
}

int ft_tracer_set(const char *name, char *err, size_t errlen)
{
	const struct tracer *t = NULL, *old;
	char what[96];

	for (unsigned i = 0; i < sizeof(tracers) / sizeof(tracers[0]); i++)
		if (!strcmp(tracers[i].name, name))
			t = &tracers[i];
	if (!t) {
		snprintf(err, errlen, "no such tracer: '%s'", name);
		return -1;
	}
	if (t == current)
		return 0;
	if ((t->flags & FTRACE_OPS_FL_GRAPH) && !ft_graph_safe_here()) {
		snprintf(err, errlen, "%s cannot follow C++ exceptions in a process fntrace "
			 "attached to: use the function tracer, or start it with fntrace run", name);
		return -1;
	}
	if (t != &tracers[0] && ft_get_ready(err, errlen))
		return -1;
	old = current;
	switch (switch_tracer(old, t)) {
	case 0:
		ft_snapshot_note_tracer();
		return 0;
	case -1:
		snprintf(what, sizeof(what), "cannot switch to %s, nothing changed", name);
		break;
	default:
		snprintf(what, sizeof(what), "cannot switch to %s nor back to %s, the tracer is nop",
			 name, old->name);
	}
	ft_update_failed(err, errlen, what);
	return -1;
}

const struct filter *ft_filter_get(enum ft_filter_file which)
{
	return &filters[which];
}

int ft_filter_selects(enum ft_filter_file which, const struct ftrace_rec *rec,
		      const char *module)
{
	const struct filter *f = &filters[which];
	const char *plain = ft_plain_name(f, rec);

	if (which == FT_FILTER)
		return filter_selects_as(f, rec->name, plain, module);
	return filter_matches_any_as(f, rec->name, plain, module);
}

/* Does the expression name something: a loaded function, or a module
 * that may be loaded later? */
static int matches_something(const struct filter_expr *e)
{
	struct filter one = { .v = (struct filter_expr *)e, .nr = 1, .nr_add = 1 };

	if (e->remove || e->module)
		return 1;
	for (uint32_t id = 1; id <= ftrace_rec_count(); id++) {
		const struct ftrace_rec *rec = ftrace_rec_get(id);

		if (!(rec->flags & FTRACE_FL_DISABLED) &&
		    filter_matches_any_as(&one, rec->name, ft_plain_name(&one, rec),
					  ftrace_module_get(rec->module)->name))
			return 1;
	}
	return 0;
}

/* Parse words onto f, checking each expression unless lenient. */
static int parse_into(struct filter *f, const char *const *words, unsigned n, int lenient,
		      char *err, size_t errlen)
{
	for (unsigned i = 0; i < n; i++) {
		if (filter_add(f, words[i], err, errlen))
			return -1;
		if (!lenient && !matches_something(&f->v[f->nr - 1])) {
			snprintf(err, errlen, "no such function: '%s'", words[i]);
			return -1;
		}
	}
	return 0;
}

/* The white-space separated words of text, pointing into *copy; the
 * count, or -1 if out of memory. */
static int split_words(const char *text, char **copy, const char ***words)
{
	char *save = NULL;
	int n = 0;

	*words = NULL;
	*copy = strdup(text);
	if (!*copy || !(*words = calloc(strlen(text) / 2 + 1, sizeof(**words))))
		return -1;
	for (char *w = strtok_r(*copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
		(*words)[n++] = w;
	return n;
}

/* The commands (function triggers) moved after the filter expressions,
 * each kind in its order; how many there are. */
static unsigned commands_last(const char **words, unsigned n)
{
	unsigned plain = 0, nr = 0;
	const char **cmds = calloc(n ? n : 1, sizeof(*cmds));

	if (!cmds)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (trigger_is_command(words[i]))
			cmds[nr++] = words[i];
		else
			words[plain++] = words[i];
	memcpy(words + plain, cmds, nr * sizeof(*cmds));
	free(cmds);
	return nr;
}

static int copy_filter(struct filter *to, const struct filter *from)
{
	char err[16];

	memset(to, 0, sizeof(*to));
	for (unsigned i = 0; i < from->nr; i++)
		if (filter_add(to, from->v[i].text, err, sizeof(err)))
			return -1;
	return 0;
}

/* The graph hooks look at the graph filter files only when they say
 * something. */
static void graph_filters_changed(void)
{
	ft_graph.functions = filters[FT_GRAPH_FUNCTION].nr_add > 0;
	ft_graph.filters = ft_graph.functions || filters[FT_GRAPH_NOTRACE].nr > 0;
}

/* The update after a filter write, with its triggers if it had any. */
static int update_with(struct ft_trigger_write *triggers, char *err, size_t errlen)
{
	if (triggers)
		return ft_triggers_commit(triggers, err, errlen);
	if (ftrace_update() == 0)
		return 0;
	ft_update_failed(err, errlen, "cannot patch, nothing changed");
	return -1;
}

/* A write to set_ftrace_filter may hold commands, the kernel's function
 * triggers (triggers.h): they are planned beside the filter and applied
 * with it.  A write of commands alone leaves the filter as it is, as a
 * probe is not a filter: the kernel would have emptied it (the file
 * opened with O_TRUNC), a trap fntrace spares the user. */
static int filter_write(enum ft_filter_file which, const char *text, int append,
			int lenient, char *err, size_t errlen)
{
	struct filter next = { 0 }, old = filters[which];
	struct ft_trigger_write *triggers = NULL;
	const char **words;
	char *copy;
	int n = split_words(text, &copy, &words), ret;
	unsigned cmds = n > 0 && which == FT_FILTER ? commands_last(words, n) : 0;
	int keep = append || (cmds && cmds == (unsigned)n);

	ft_plain_names_prepare();
	if (n < 0)
		snprintf(err, errlen, "out of memory");
	ret = n < 0 || (keep && copy_filter(&next, &old)) ||
	      parse_into(&next, words, n - cmds, lenient, err, errlen) ||
	      (cmds && ft_triggers_prepare(&triggers, words + n - cmds, cmds, err, errlen));
	free(words);
	if (!ret) {
		filters[which] = next;
		graph_filters_changed();
		ret = update_with(triggers, err, errlen);
	}
	if (ret) {
		filters[which] = old;
		graph_filters_changed();
	}
	filter_free(ret ? &next : &old);
	free(copy);
	return ret ? -1 : 0;
}

int ft_filter_write(enum ft_filter_file which, const char *text, int append,
		    char *err, size_t errlen)
{
	return filter_write(which, text, append, 0, err, errlen);
}

int ft_filter_preset(enum ft_filter_file which, const char *text, char *err, size_t errlen)
{
	return filter_write(which, text, 1, 1, err, errlen);
}

int ft_profile_set(int on, char *err, size_t errlen)
{
	if (on && !ft_graph_safe_here()) {
		snprintf(err, errlen, "the profiler cannot follow C++ exceptions in a process "
			 "fntrace attached to: start it with fntrace run");
		return -1;
	}
	if (on && ft_get_ready(err, errlen))
		return -1;
	ft_graph.profile = on;
	if (ft_profile_start_stop(on, &filters[FT_FILTER], &filters[FT_NOTRACE])) {
		ft_graph.profile = !on;
		ft_update_failed(err, errlen, on ? "cannot start the profiler, nothing changed" :
				 "cannot stop the profiler, nothing changed");
		return -1;
	}
	return 0;
}

int ft_profile_enabled(void)
{
	return ft_graph.profile;
}

void ft_graph_set_depth(unsigned depth)
{
	ft_graph.max_depth = depth;
}

void ft_graph_set_retval(int on)
{
	ft_graph.retval = on;
}
