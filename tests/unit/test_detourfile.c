// SPDX-License-Identifier: GPL-2.0
/*
 * Detour files (src/sites/detourfile.c): what is written reads back the
 * same; every malformed line refuses the whole file, the runtime being
 * its reader; a relocation field must lie inside the copy.
 */
#include "unit.h"
#include "../../src/sites/detourfile.h"
#include "../../src/sites/sitefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ID "0123456789abcdef0123456789abcdef01234567"
#define HEAD "fntrace-detours 1 x86_64 " ID "\n"

static char path[64];

static int read_text(const char *text)
{
	struct detourfile df;
	char err[160];
	FILE *f = fopen(path, "w");
	int ret;

	fputs(text, f);
	fclose(f);
	ret = detourfile_read(path, "x86_64", ID, &df, err, sizeof(err));
	if (ret > 0)
		detourfile_free(&df);
	return ret;
}

static void round_trip(void)
{
	struct detourfile_entry v[2] = {
		{ .patch = 0x1560, .func = 0x1560, .len = 7, .copy_len = 12, .nr_relocs = 2,
		  .orig = { 0x48, 0x8b, 0x15, 0x39, 0x2b, 0, 0 },
		  .copy = { 0x48, 0x8b, 0x15, 0x39, 0x2b, 0, 0, 0xe9, 0xfb, 0xff, 0xff, 0xff },
		  .relocs = { 3, 8 }, .name = "mix" },
		{ .patch = 0x14d4, .func = 0x14d0, .len = 5, .copy_len = 10,
		  .orig = { 0x8d, 0x04, 0x7f, 0x01, 0xf0 },
		  .copy = { 0x8d, 0x04, 0x7f, 0x01, 0xf0, 0xe9, 0xfb, 0xff, 0xff, 0xff },
		  .name = "Gen::next() const" },
	};
	struct detourfile df;
	char err[160];

	CHECK("write", detourfile_write(path, "x86_64", ID, v, 2, err, sizeof(err)) == 0);
	CHECK("read back", detourfile_read(path, "x86_64", ID, &df, err, sizeof(err)) == 1 &&
	      df.nr == 2);
	CHECK("the same entries", df.nr == 2 && df.v[0].patch == 0x1560 && df.v[0].len == 7 &&
	      !memcmp(df.v[0].orig, v[0].orig, 7) && df.v[0].copy_len == 12 &&
	      !memcmp(df.v[0].copy, v[0].copy, 12) && df.v[0].nr_relocs == 2 &&
	      df.v[0].relocs[0] == 3 && df.v[0].relocs[1] == 8 && !strcmp(df.v[0].name, "mix") &&
	      df.v[1].patch == 0x14d4 && df.v[1].func == 0x14d0 && df.v[1].nr_relocs == 0 &&
	      !strcmp(df.v[1].name, "Gen::next() const"));
	if (df.nr)
		detourfile_free(&df);
	CHECK("another arch is refused",
	      detourfile_read(path, "aarch64", ID, &df, err, sizeof(err)) == -1);
	CHECK("another build-id is refused",
	      detourfile_read(path, "x86_64", ID "00", &df, err, sizeof(err)) == -1);
}

static void malformed(void)
{
	static const struct { const char *what, *text; } bad[] = {
		{ "empty file", "" },
		{ "version 2", "fntrace-detours 2 x86_64 " ID "\n" },
		{ "orig shorter than len", HEAD "10 5 8d047f01 8d047f01f0e9fbffffff - 10 f\n" },
		{ "odd hex digits", HEAD "10 5 8d047f01f0 8d047f01f0e9fbfffff - 10 f\n" },
		{ "a field past the copy's end", HEAD "10 5 8d047f01f0 8d047f01f0e9fbffffff 7 10 f\n" },
		{ "relocs not numbers", HEAD "10 5 8d047f01f0 8d047f01f0e9fbffffff x 10 f\n" },
		{ "a trailing comma", HEAD "10 5 8d047f01f0 8d047f01f0e9fbffffff 6, 10 f\n" },
		{ "no name", HEAD "10 5 8d047f01f0 8d047f01f0e9fbffffff 6 10 \n" },
		{ "a control character in the name", HEAD "10 5 8d047f01f0 8d047f01f0e9fbffffff 6 10 f\x1b\n" },
		{ "len past the limit", HEAD "10 99 8d047f01f0 8d047f01f0e9fbffffff 6 10 f\n" },
		{ "no final newline", HEAD "10 5 8d047f01f0 8d047f01f0e9fbffffff 6 10 f" },
	};
	struct detourfile df;
	char err[160];

	CHECK("a good line is taken",
	      read_text(HEAD "10 5 8d047f01f0 8d047f01f0e9fbffffff 6 10 f\n") == 1);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(bad[i].what, read_text(bad[i].text) == -1);
	unlink(path);
	CHECK("no file: none, not an error", detourfile_read(path, "x86_64", ID, &df, err,
							     sizeof(err)) == 0);
}

int main(void)
{
	char dir[] = "/tmp/fntrace-unit-XXXXXX";

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/sub/" ID ".detours", dir);
	round_trip();
	malformed();
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	rmdir(dir);
	return unit_done();
}
