// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into a robustness program for tests/cases/attach/attach_robust.sh: with
 * ATTACH_GATE=PATH set, the program waits before main() until PATH
 * exists (the test attaches meanwhile), and after main() returns says so
 * in PATH.done and waits until PATH is gone again (the test reads the
 * trace and detaches meanwhile).  Not traced itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define UNTRACED __attribute__((no_instrument_function))

static const char *gate;

UNTRACED static void wait_until(int exists)
{
	while ((access(gate, F_OK) == 0) != exists)
		usleep(5000);
}

UNTRACED static void after_main(void)
{
	char done[4096];

	snprintf(done, sizeof(done), "%s.done", gate);
	fclose(fopen(done, "w"));
	wait_until(0);
}

UNTRACED __attribute__((constructor)) static void before_main(void)
{
	gate = getenv("ATTACH_GATE");
	if (!gate)
		return;
	wait_until(1);
	atexit(after_main);
}
