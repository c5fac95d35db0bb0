/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function triggers, the commands of set_ftrace_filter, in the kernel's
 * syntax (Documentation/trace/ftrace.rst, "Filter commands"):
 *
 *   FUNC:traceoff[:N]    tracing_on 0 when FUNC is called (N times)
 *   FUNC:traceon[:N]     tracing_on 1
 *   FUNC:stacktrace[:N]  the calling stack into the trace
 *   FUNC:snapshot[:N]    a snapshot of the ring, taken just after the call
 *   FUNC:dump[:N]        the same, said on stderr as the kernel's dump is
 *                        on the console (docs/design.md, Function triggers)
 *   FUNC:snapshot_if_longer:USEC[:N]
 *                        a snapshot when a call of FUNC lasted at least
 *                        USEC microseconds, taken after its exit: not the
 *                        kernel's (a duration trigger)
 *   !FUNC:COMMAND[:N]    removed (the count is not read: the kernel's
 *                        form for removing a counted one)
 *
 * FUNC is a filter expression (filter.h): a glob, or FUNC:mod:MODULE.
 * What a command does is the runtime's (core/triggers.h); which commands
 * there are and how they are written is shared with the command line,
 * which checks a --trigger before the program starts.
 */
#ifndef FNTRACE_TRIGGER_H
#define FNTRACE_TRIGGER_H

#include <stddef.h>

enum trigger_cmd {
	TRIGGER_TRACEOFF,
	TRIGGER_TRACEON,
	TRIGGER_STACKTRACE,
	TRIGGER_SNAPSHOT,
	TRIGGER_DUMP,
	TRIGGER_SNAPSHOT_IF_LONGER,
	TRIGGER_COMMANDS
};

#define TRIGGER_UNLIMITED	(-1L)
#define TRIGGER_MAX_COUNT	0x7fffffffL
#define TRIGGER_MAX_USEC	3600000000UL	/* an hour */

struct trigger_command {
	const char *name;
	const char *unavailable;	/* not NULL: refused, for this reason */
	int takes_usec;			/* a duration before the count */
};

extern const struct trigger_command trigger_commands[TRIGGER_COMMANDS];

/* One command as written. */
struct trigger_expr {
	char *func;		/* FUNC, or FUNC:mod:MODULE */
	enum trigger_cmd cmd;
	long count;		/* hits it may fire, or TRIGGER_UNLIMITED */
	unsigned long usec;	/* snapshot_if_longer's duration */
	int remove;		/* '!' */
};

/* Is this expression of set_ftrace_filter a command? */
int trigger_is_command(const char *text);
/* Parse a command; -1 with a one-line reason in err (an unknown or
 * unavailable command, a bad duration or count). */
int trigger_parse(struct trigger_expr *t, const char *text, char *err, size_t errlen);
void trigger_expr_free(struct trigger_expr *t);

#endif
