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
 * with no count.  The recording runs with its own triggers alone: the
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
	"options/funcgraph-retval", "set_ftrace_args", "tracing_on", "current_tracer",
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

static int append(char **list, const char *line)
{
	size_t old = *list ? strlen(*list) : 0;
	char *s = realloc(*list, old + strlen(line) + 2);

	if (!s)
		return -1;
	sprintf(s + old, "%s\n", line);
	*list = s;
	return 0;
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
	if (trigger_is_command(out))
		written_count(out);
	return out;
}

/* The listing split into the filter's expressions and the triggers,
 * each as written back, a line each; -1 if out of memory. */
static int split_listing(const char *listing, char **filter, char **triggers)
{
	char *copy = strdup(listing), *save = NULL;
	int ret = copy ? 0 : -1;

	*filter = strdup("");
	*triggers = NULL;
	for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL; line && !ret && *filter;
	     line = strtok_r(NULL, "\n", &save)) {
		char *expr;

		if (!strcmp(line, all_enabled))
			continue;
		expr = writable(line);
		ret = !expr || append(trigger_is_command(expr) ? triggers : filter, expr);
		free(expr);
	}
	free(copy);
	return ret || !*filter ? -1 : 0;
}

int record_settings_save(pid_t pid, struct record_settings *s)
{
	char *listing;
	int ret;

	for (int i = 1; i < NR_KEPT_SETTINGS; i++)
		if (!(s->value[i] = read_file(pid, files[i])))
			return -1;
	if (!(listing = read_file(pid, files[0])))
		return -1;
	ret = split_listing(listing, &s->value[0], &s->triggers);
	free(listing);
	if (ret)
		cli_error("out of memory");
	return ret;
}

/* One trigger of the process taken off: "!" before it as written. */
static int take_off(pid_t pid, const char *trigger)
{
	char *remove = malloc(strlen(trigger) + 2);
	int ret;

	if (!remove)
		return -1;
	sprintf(remove, "!%s", trigger);
	ret = ctl_set(pid, files[0], remove);
	free(remove);
	return ret;
}

int record_triggers_set(pid_t pid, const char *triggers)
{
	char *listing = read_file(pid, files[0]), *filter = NULL, *now = NULL, *save = NULL;
	int ret = !listing || split_listing(listing, &filter, &now);

	for (char *t = !ret && now ? strtok_r(now, "\n", &save) : NULL; t && !ret;
	     t = strtok_r(NULL, "\n", &save))
		ret = take_off(pid, t);
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
