// SPDX-License-Identifier: GPL-2.0
/*
 * record -p changes a running process's settings (tracer, filters,
 * triggers, depth, tracing_thresh, argument specs) for its recording; a
 * user may have set them with `fntrace ctl` for their own reading.  So
 * they are read first and written back when the recording stops, the
 * tracer last, as the user had it.
 *
 * set_ftrace_filter lists what it holds in the kernel's words, which are
 * not all written back as they read: a function of a library is
 * "name [libx.so]", written "name:mod:libx.so"; a trigger is
 * "name:traceoff:count=3" or ":unlimited", written "name:traceoff:3" or
 * with no count, and what follows a " # " (snapshot_if_longer's tallies)
 * is left out.  The recording runs with its own triggers alone: the
 * process's are taken off for it and put back after.
 */
#include "../cli/cli.h"
#include "../control/ctl_client.h"
#include "record.h"
#include "../common/array.h"
#include "../common/trigger.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* In the order they are put back: the tracer last, once its settings
 * are the user's again. */
static const char *const files[NR_KEPT_SETTINGS] = {
	"set_ftrace_filter", "set_ftrace_notrace", "max_graph_depth", "tracing_thresh",
	"options/funcgraph-retval", "set_ftrace_args", "ftrace_dump_on_oops", "tracing_on",
	"current_tracer",
};

/* The kernel's words for an empty filter, which is what is written back. */
static const char all_enabled[] = "#### all functions enabled ####";

static char *read_file(pid_t pid, const char *file)
{
	int status;
	struct ctl_conn *c = ctl_request(pid, "read", file, NULL, NULL, &status);
	size_t len = 0, cap = 0;
	char *text = NULL;
	ssize_t n = 1;

	if (!c)
		return NULL;
	while (n > 0 && !grow_array((void **)&text, &cap, len + 4096, 1)) {
		n = ctl_read_some(c, text + len, cap - len - 1);
		len += n > 0 ? n : 0;
	}
	if (c->err || n > 0) {
		ctl_say_broken(c, file);
		free(text);
		text = NULL;
	} else {
		text[len] = '\0';
	}
	ctl_close(c);
	return text;
}

/* A trigger's listed count as it is written: ":count=3" is ":3", and
 * ":unlimited" goes.  Cut in place. */
static void written_count(char *rest)
{
	char *last = strrchr(rest, ':');

	if (!last)
		return;
	if (!strcmp(last, ":unlimited"))
		*last = '\0';
	else if (!strncmp(last, ":count=", 7))
		memmove(last + 1, last + 7, strlen(last + 7) + 1);
}

/* A line of set_ftrace_filter's listing as an expression that sets it
 * again; NULL if out of memory. */
static char *writable(const char *line)
{
	const char *bracket = strstr(line, " [");
	const char *close = bracket ? strchr(bracket, ']') : NULL;
	size_t name = close ? (size_t)(bracket - line) : strlen(line);
	const char *rest = close ? close + 1 : line + name;
	char *out = malloc(strlen(line) + 8);

	if (!out)
		return NULL;
	if (close)
		sprintf(out, "%.*s:mod:%.*s%s", (int)name, line,
			(int)(close - bracket - 2), bracket + 2, rest);
	else
		strcpy(out, line);
	/* snapshot_if_longer's tallies follow a '#': not written back. */
	if (strstr(out, " # "))
		*strstr(out, " # ") = '\0';
	if (trigger_is_command(out))
		written_count(out);
	return out;
}

/* Is line one of list's? */
static int has_line(const char *list, const char *line)
{
	size_t len = strlen(line);

	for (const char *p = list; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, line, len) && (p[len] == '\n' || !p[len]))
			return 1;
	return 0;
}

/* The listing split into the filter's expressions and the triggers,
 * each as written back, a line each, once: a library's function is
 * listed both by name and in the :mod: expression that names it, as it
 * was set; -1 if out of memory. */
static int split_listing(const char *listing, char **filter, char **triggers)
{
	char *copy = strdup(listing), *save = NULL;
	int ret = copy ? 0 : -1;

	*filter = strdup("");
	*triggers = NULL;
	for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL; line && !ret && *filter;
	     line = strtok_r(NULL, "\n", &save)) {
		char *expr, **list;

		if (!strcmp(line, all_enabled))
			continue;
		expr = writable(line);
		list = expr && trigger_is_command(expr) ? triggers : filter;
		ret = !expr || (!has_line(*list, expr) && cli_append_line(list, expr));
		free(expr);
	}
	free(copy);
	return ret || !*filter ? -1 : 0;
}

/* A filter file's listing (set_ftrace_filter, set_ftrace_notrace: both
 * name a library's functions "name [libx.so]"), as written back. */
static int save_filter(pid_t pid, unsigned i, char **value, char **triggers)
{
	char *listing = read_file(pid, files[i]);
	int ret;

	if (!listing)
		return -1;
	ret = split_listing(listing, value, triggers);
	free(listing);
	if (ret)
		cli_error("out of memory");
	return ret;
}

int record_settings_save(pid_t pid, struct record_settings *s)
{
	char *none = NULL;
	int ret;

	for (int i = 2; i < NR_KEPT_SETTINGS; i++)
		if (!(s->value[i] = read_file(pid, files[i])))
			return -1;
	ret = save_filter(pid, 0, &s->value[0], &s->triggers) ||
	      save_filter(pid, 1, &s->value[1], &none);
	free(none);
	return ret ? -1 : 0;
}

/* The triggers taken off, in one write: "!" before each as written. */
static int take_off(pid_t pid, char *triggers)
{
	char *remove = malloc(2 * strlen(triggers) + 2), *save = NULL, *end;
	int ret;

	if (!remove)
		return -1;
	end = remove;
	*end = '\0';
	for (char *t = strtok_r(triggers, "\n", &save); t; t = strtok_r(NULL, "\n", &save))
		end += sprintf(end, "!%s\n", t);
	ret = *remove ? ctl_set(pid, files[0], remove) : 0;
	free(remove);
	return ret;
}

int record_triggers_set(pid_t pid, const char *triggers)
{
	char *listing = read_file(pid, files[0]), *filter = NULL, *now = NULL;
	int ret = !listing || split_listing(listing, &filter, &now) ||
		  (now && take_off(pid, now));

	free(listing);
	free(filter);
	free(now);
	if (ret)
		return -1;
	return triggers ? ctl_set(pid, files[0], triggers) : 0;
}

int record_settings_restore(pid_t pid, const struct record_settings *s)
{
	int ret = record_triggers_set(pid, s->triggers) ? -1 : 0;

	for (int i = 0; i < NR_KEPT_SETTINGS; i++)
		if (s->value[i])
			ret |= ctl_set(pid, files[i], s->value[i]);
	return ret ? -1 : 0;
}

void record_settings_free(struct record_settings *s)
{
	for (int i = 0; i < NR_KEPT_SETTINGS; i++) {
		free(s->value[i]);
		s->value[i] = NULL;
	}
	free(s->triggers);
	s->triggers = NULL;
}
