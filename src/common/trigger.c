// SPDX-License-Identifier: GPL-2.0
/*
 * The syntax of function triggers (trigger.h), as the kernel's
 * ftrace_process_regex() splits a command: "FUNC:COMMAND:PARAM".
 */
#include "trigger.h"
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A command with a reason is refused until the runtime can do it: then
 * its hit goes into core/trigger_hits.c's table, and its reason goes. */
const struct trigger_command trigger_commands[TRIGGER_COMMANDS] = {
	[TRIGGER_TRACEOFF] = { "traceoff", NULL, 0 },
	[TRIGGER_TRACEON] = { "traceon", NULL, 0 },
	[TRIGGER_STACKTRACE] = { "stacktrace", NULL, 0 },
	[TRIGGER_SNAPSHOT] = { "snapshot", NULL, 0 },
	[TRIGGER_DUMP] = { "dump", NULL, 0 },
	[TRIGGER_SNAPSHOT_IF_LONGER] = { "snapshot_if_longer", NULL, 1 },
};

int trigger_is_command(const char *text)
{
	return filter_command(text + (text[0] == '!')) != NULL;
}

static int find_command(const char *name, size_t len, enum trigger_cmd *cmd)
{
	for (unsigned i = 0; i < TRIGGER_COMMANDS; i++)
		if (strlen(trigger_commands[i].name) == len &&
		    !strncmp(trigger_commands[i].name, name, len)) {
			*cmd = i;
			return 0;
		}
	return -1;
}

/* ":N": the hits it may fire; none, or empty as the kernel takes it:
 * unlimited. */
static int parse_count(const char *param, long *count)
{
	char *end;
	unsigned long n;

	*count = TRIGGER_UNLIMITED;
	if (!param || !*param)
		return 0;
	if (*param < '0' || *param > '9')
		return -1;
	n = strtoul(param, &end, 10);
	if (*end || n > TRIGGER_MAX_COUNT)
		return -1;
	*count = (long)n;
	return 0;
}

static int refuse(char *err, size_t errlen, const char *why, const char *text)
{
	snprintf(err, errlen, "%s: '%s'", why, text);
	return -1;
}

static int check_command(struct trigger_expr *t, const char *name, size_t len,
			 const char *text, char *err, size_t errlen)
{
	if (find_command(name, len, &t->cmd)) {
		snprintf(err, errlen, "no such command '%.*s' (traceoff, traceon, stacktrace, "
			 "snapshot, dump, snapshot_if_longer): '%s'", (int)len, name, text);
		return -1;
	}
	if (!t->remove && trigger_commands[t->cmd].unavailable) {
		snprintf(err, errlen, "%s: %s: '%s'", trigger_commands[t->cmd].name,
			 trigger_commands[t->cmd].unavailable, text);
		return -1;
	}
	return 0;
}

/* snapshot_if_longer's "USEC" before the count: a whole number of
 * microseconds, 1 to an hour.  The count's text is left in *param. */
static int parse_usec(const char **param, unsigned long *usec)
{
	char *end;

	if (!*param || (*param)[1] < '0' || (*param)[1] > '9')
		return -1;
	*usec = strtoul(*param + 1, &end, 10);
	if ((*end && *end != ':') || *usec == 0 || *usec > TRIGGER_MAX_USEC)
		return -1;
	*param = *end ? end : NULL;
	return 0;
}

int trigger_parse(struct trigger_expr *t, const char *text, char *err, size_t errlen)
{
	const char *name = filter_command(text + (text[0] == '!'));
	const char *param = name ? strchr(name, ':') : NULL;
	size_t len = param ? (size_t)(param - name) : name ? strlen(name) : 0;

	memset(t, 0, sizeof(*t));
	t->remove = text[0] == '!';
	if (!name)
		return refuse(err, errlen, "not a command (FUNC:COMMAND[:COUNT])", text);
	if (check_command(t, name, len, text, err, errlen))
		return -1;
	if (!t->remove && trigger_commands[t->cmd].takes_usec && parse_usec(&param, &t->usec))
		return refuse(err, errlen, "bad duration (FUNC:snapshot_if_longer:USEC[:COUNT], "
			      "USEC from 1 to 3600000000)", text);
	if (!t->remove && parse_count(param ? param + 1 : NULL, &t->count))
		return refuse(err, errlen, "bad count (a number from 0 to 2147483647)", text);
	t->func = strndup(text + t->remove, name - 1 - (text + t->remove));
	if (!t->func)
		return refuse(err, errlen, "out of memory", text);
	return 0;
}

void trigger_expr_free(struct trigger_expr *t)
{
	free(t->func);
	t->func = NULL;
}
