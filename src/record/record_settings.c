// SPDX-License-Identifier: GPL-2.0
/*
 * record -p changes a running process's settings (tracer, filters,
 * depth, tracing_thresh, argument specs) for its recording; a user may have set them
 * with `fntrace ctl` for their own reading.  So they are read first and
 * written back when the recording stops, the tracer last, as the user
 * had it.
 */
#include "../cli/cli.h"
#include "../control/ctl_client.h"
#include "record.h"
#include "../common/array.h"

#include <stdlib.h>
#include <string.h>

/* In the order they are put back: the tracer last, once its settings
 * are the user's again. */
static const char *const files[NR_KEPT_SETTINGS] = {
	"set_ftrace_filter", "set_ftrace_notrace", "max_graph_depth", "tracing_thresh",
	"options/funcgraph-retval", "set_ftrace_args", "tracing_on", "current_tracer",
};

/* The kernel's words for an empty filter, which is what is written back. */
static const char all_enabled[] = "#### all functions enabled ####\n";

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
	if (text && !strcmp(text, all_enabled))
		text[0] = '\0';
	return text;
}

int record_settings_save(pid_t pid, struct record_settings *s)
{
	for (int i = 0; i < NR_KEPT_SETTINGS; i++)
		if (!(s->value[i] = read_file(pid, files[i])))
			return -1;
	return 0;
}

int record_settings_restore(pid_t pid, const struct record_settings *s)
{
	int ret = 0;

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
}
