/*
 * Calls into Debian's libz as installed, which has no call sites
 * (tests/cases/trace/detour_trace.sh): crc32() directly, and deflate()
 * through compress2().  Built with call sites itself.
 *
 *   detour_zlib N     N rounds; the checksums and sizes printed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static unsigned long round_trip(unsigned i)
{
	unsigned char in[4096], out[8192], back[4096];
	uLongf out_len = sizeof(out), back_len = sizeof(back);

	for (unsigned k = 0; k < sizeof(in); k++)
		in[k] = (unsigned char)((k * 7 + i) % 23);
	if (compress2(out, &out_len, in, sizeof(in), 6) != Z_OK ||
	    uncompress(back, &back_len, out, out_len) != Z_OK || back_len != sizeof(in) ||
	    memcmp(in, back, sizeof(in))) {
		printf("bad round %u\n", i);
		exit(1);
	}
	return crc32(0, in, sizeof(in)) ^ out_len;
}

int main(int argc, char **argv)
{
	unsigned long sum = 0;
	int n = argc > 1 ? atoi(argv[1]) : 10;

	for (int i = 0; i < n; i++)
		sum += round_trip((unsigned)i);
	printf("rounds %d sum %lx\n", n, sum);
	return 0;
}
