// SPDX-License-Identifier: GPL-2.0
/* The syntax of function triggers: FUNC:COMMAND[:COUNT], !FUNC:COMMAND,
 * FUNC:mod:MODULE:COMMAND, the commands there are, and the refusals the
 * command line and the runtime share. */
#include "unit.h"
#include "../../src/common/trigger.h"

#include <string.h>

/* Parsed as func, cmd, count, remove? */
static int parses(const char *text, const char *func, enum trigger_cmd cmd, long count,
		  int remove)
{
	struct trigger_expr t;
	char err[256];
	int ok;

	if (trigger_parse(&t, text, err, sizeof(err)))
		return 0;
	ok = !strcmp(t.func, func) && t.cmd == cmd && t.count == count && t.remove == remove;
	trigger_expr_free(&t);
	return ok;
}

/* Refused, saying why? */
static int refused(const char *text, const char *why)
{
	struct trigger_expr t;
	char err[256] = "";

	if (!trigger_parse(&t, text, err, sizeof(err))) {
		trigger_expr_free(&t);
		return 0;
	}
	return strstr(err, why) != NULL;
}

int main(void)
{
	CHECK("a command", trigger_is_command("f:traceoff") && trigger_is_command("!f:dump"));
	CHECK("a filter with :mod: is none", !trigger_is_command("f:mod:libc*") &&
	      !trigger_is_command("!f:mod:m") && !trigger_is_command("f*"));
	CHECK("C++'s :: is part of the name", !trigger_is_command("Gen::next") &&
	      trigger_is_command("Gen::next:traceon"));
	CHECK("after :mod:MODULE, a command", trigger_is_command("f:mod:libm.so:stacktrace:2"));

	CHECK("no count: unlimited", parses("parse_*:traceoff", "parse_*", TRIGGER_TRACEOFF,
					    TRIGGER_UNLIMITED, 0));
	CHECK("an empty count, as the kernel: unlimited",
	      parses("f:traceon:", "f", TRIGGER_TRACEON, TRIGGER_UNLIMITED, 0));
	CHECK("a count", parses("f:stacktrace:3", "f", TRIGGER_STACKTRACE, 3, 0));
	CHECK("a count of 0", parses("f:traceoff:0", "f", TRIGGER_TRACEOFF, 0, 0));
	CHECK("the most", parses("f:traceoff:2147483647", "f", TRIGGER_TRACEOFF, 2147483647L, 0));
	CHECK("FUNC keeps its :mod:", parses("f:mod:libx.so:traceon:2", "f:mod:libx.so",
					     TRIGGER_TRACEON, 2, 0));
	CHECK("C++ names", parses("ns::Gen::next:stacktrace", "ns::Gen::next",
				  TRIGGER_STACKTRACE, TRIGGER_UNLIMITED, 0));
	CHECK("!: a removal, its count not read",
	      parses("!f:traceoff:0", "f", TRIGGER_TRACEOFF, 0, 1) &&
	      parses("!f:traceoff:junk", "f", TRIGGER_TRACEOFF, 0, 1));
	CHECK("snapshot may be removed (there is none to remove)",
	      parses("!f:snapshot", "f", TRIGGER_SNAPSHOT, 0, 1));

	CHECK("unknown command", refused("f:bogus", "no such command 'bogus'"));
	CHECK("a prefix of one is not one", refused("f:trace", "no such command 'trace'"));
	CHECK("not a command", refused("f", "not a command"));
	CHECK("bad counts", refused("f:traceoff:x", "bad count") &&
	      refused("f:traceoff:-1", "bad count") && refused("f:traceoff:+1", "bad count") &&
	      refused("f:traceoff:1x", "bad count") && refused("f:traceoff:2147483648", "bad count"));
	CHECK("snapshot, with a count", parses("f:snapshot:1", "f", TRIGGER_SNAPSHOT, 1, 0));
	CHECK("dump", parses("f:dump", "f", TRIGGER_DUMP, TRIGGER_UNLIMITED, 0));
	CHECK("snapshot_if_longer: the duration, then the count",
	      parses("f:snapshot_if_longer:50000:3", "f", TRIGGER_SNAPSHOT_IF_LONGER, 3, 0));
	CHECK("snapshot_if_longer wants a duration",
	      refused("f:snapshot_if_longer", "bad duration") &&
	      refused("f:snapshot_if_longer:0", "bad duration") &&
	      refused("f:snapshot_if_longer:3600000001", "bad duration") &&
	      refused("f:snapshot_if_longer:5x", "bad duration"));
	CHECK("every command named", !strcmp(trigger_commands[TRIGGER_TRACEOFF].name, "traceoff") &&
	      !strcmp(trigger_commands[TRIGGER_DUMP].name, "dump"));
	return unit_done();
}
