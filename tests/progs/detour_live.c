/*
 * Calls into Debian's libz as installed and into a library built with
 * plain -O2 (detour_live_lib.c), neither with call sites, while fntrace
 * ctl switches them live (tests/cases/trace/detour_live_lib.sh).  Built
 * with call sites itself.
 *
 *   detour_live     "ready"; then for each line N read, crc32() N times
 *                   and too_short() once, "done N"; at the end of its
 *                   input, "ok" if every checksum was right
 */
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

int too_short(void);

int main(void)
{
	unsigned char buf[256];
	char line[64];
	int ok = 1;

	for (unsigned k = 0; k < sizeof(buf); k++)
		buf[k] = (unsigned char)(k * 7 % 23);
	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		int n = atoi(line);

		for (int i = 0; i < n; i++)
			ok &= crc32(0, buf, sizeof(buf)) == 0xec12b2fful;
		ok &= too_short() == 0;
		printf("done %d\n", n);
		fflush(stdout);
	}
	printf("%s\n", ok ? "ok" : "bad checksum");
	return 0;
}
