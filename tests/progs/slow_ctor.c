// SPDX-License-Identifier: GPL-2.0
/*
 * A library whose constructor holds the dynamic loader's lock for as
 * long as the test wants: it creates $SLOW_CTOR_DIR/in_ctor and waits for
 * $SLOW_CTOR_DIR/release.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void wait_for_release(void)
{
	const char *dir = getenv("SLOW_CTOR_DIR");
	char path[4096];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/in_ctor", dir);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/release", dir);
	for (int i = 0; i < 3000 && access(path, F_OK); i++)
		usleep(10000);
}

int slow_ctor_value(void)
{
	return 42;
}
