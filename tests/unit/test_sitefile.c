// SPDX-License-Identifier: GPL-2.0
/*
 * Side files (src/sites/sitefile.c): what is written reads back the same;
 * every malformed variant is refused as a whole; where the file lives.
 * And the forms only a linker makes (recordmcount --image) are sound.
 */
#include "unit.h"
#include "../../src/sites/sitefile.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ID "0123456789abcdef0123456789abcdef01234567"

static char path[64];

static void put(const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	fwrite(text, 1, len, f);
	fclose(f);
}

/* 1, 0 or -1 as sitefile_read() says for text as the file. */
static int read_text(const char *text, struct sitefile *sf)
{
	char err[160];
	int ret;

	put(text, strlen(text));
	ret = sitefile_read(path, "x86_64", ID, sf, err, sizeof(err));
	if (ret > 0 && sf->nr == 0)
		sitefile_free(sf);
	return ret;
}

static void round_trip(void)
{
	struct site v[] = {
		{ .addr = 0x1139, .func = 0x1130, .len = 6, .kind = SITE_FRAME, .name = "parse" },
		{ .addr = 0xffffffffff600000ull, .func = 0xffffffffff600000ull, .len = 5,
		  .kind = SITE_ENTRY, .name = "_ZN3foo3barEv" },
	};
	struct sitefile sf;
	char err[160];

	CHECK("write", sitefile_write(path, "x86_64", ID, v, 2, err, sizeof(err)) == 0);
	CHECK("read back", sitefile_read(path, "x86_64", ID, &sf, err, sizeof(err)) == 1 &&
	      sf.nr == 2);
	CHECK("same sites", sf.nr == 2 && sf.v[0].addr == 0x1139 && sf.v[0].func == 0x1130 &&
	      sf.v[0].len == 6 && sf.v[0].kind == SITE_FRAME && !strcmp(sf.v[0].name, "parse") &&
	      sf.v[1].addr == v[1].addr && sf.v[1].kind == SITE_ENTRY &&
	      !strcmp(sf.v[1].name, "_ZN3foo3barEv"));
	sitefile_free(&sf);
	CHECK("another arch is refused",
	      sitefile_read(path, "riscv64", ID, &sf, err, sizeof(err)) == -1);
	CHECK("another build-id is refused",
	      sitefile_read(path, "x86_64", ID "00", &sf, err, sizeof(err)) == -1);
}

static void malformed(void)
{
	static const struct { const char *what, *text; } bad[] = {
		{ "empty file", "" },
		{ "no final newline", "fntrace-sites 1 x86_64 " ID },
		{ "version 2", "fntrace-sites 2 x86_64 " ID "\n" },
		{ "header with more", "fntrace-sites 1 x86_64 " ID " x\n" },
		{ "not hex", "fntrace-sites 1 x86_64 " ID "\n11g9 6 frame 1130 f\n" },
		{ "0x prefix", "fntrace-sites 1 x86_64 " ID "\n0x1139 6 frame 1130 f\n" },
		{ "17 digits", "fntrace-sites 1 x86_64 " ID "\n11111111111111111 6 frame 1 f\n" },
		{ "length 0", "fntrace-sites 1 x86_64 " ID "\n1139 0 frame 1130 f\n" },
		{ "length 17", "fntrace-sites 1 x86_64 " ID "\n1139 17 frame 1130 f\n" },
		{ "bad kind", "fntrace-sites 1 x86_64 " ID "\n1139 6 middle 1130 f\n" },
		{ "no name", "fntrace-sites 1 x86_64 " ID "\n1139 6 frame 1130 \n" },
		{ "two spaces", "fntrace-sites 1 x86_64 " ID "\n1139  6 frame 1130 f\n" },
		{ "control character", "fntrace-sites 1 x86_64 " ID "\n1139 6 frame 1130 f\tg\n" },
		{ "one bad line of two", "fntrace-sites 1 x86_64 " ID
		  "\n1139 6 frame 1130 f\n1139 6 frame\n" },
	};
	static const char nul[] = "fntrace-sites 1 x86_64 " ID "\n1139 6 frame 1130 f\0g\n";
	struct sitefile sf;
	char what[96];

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(what, sizeof(what), "refused: %s", bad[i].what);
		CHECK(what, read_text(bad[i].text, &sf) == -1);
	}
	CHECK("a header alone: no sites", read_text("fntrace-sites 1 x86_64 " ID "\n", &sf) == 1);
	put(nul, sizeof(nul) - 1);
	CHECK("refused: a NUL", sitefile_read(path, "x86_64", ID, &sf, what, sizeof(what)) == -1);
	unlink(path);
	CHECK("no file: 0", sitefile_read(path, "x86_64", ID, &sf, what, sizeof(what)) == 0);
}

static void where(void)
{
	char *p;

	setenv("FNTRACE_CACHE", "/c", 1);
	p = sitefile_path(ID);
	CHECK("$FNTRACE_CACHE first", p && !strcmp(p, "/c/" ID ".sites"));
	free(p);
	unsetenv("FNTRACE_CACHE");
	setenv("XDG_CACHE_HOME", "/x", 1);
	p = sitefile_path(ID);
	CHECK("then $XDG_CACHE_HOME/fntrace", p && !strcmp(p, "/x/fntrace/" ID ".sites"));
	free(p);
	setenv("XDG_CACHE_HOME", "relative", 1);
	setenv("HOME", "/h", 1);
	p = sitefile_path(ID);
	CHECK("a relative XDG_CACHE_HOME is ignored", p && !strcmp(p, "/h/.cache/fntrace/" ID ".sites"));
	free(p);
	CHECK("a build-id must be hex", !sitefile_path("../etc") && !sitefile_path(""));
}

/* Image forms: each relocation lies inside its site, like the object forms. */
static void image_forms(void)
{
	static const unsigned machines[] = { EM_X86_64, EM_386, EM_AARCH64, EM_RISCV, EM_MIPS };
	int sane = 1, some = 0;

	for (unsigned m = 0; m < sizeof(machines) / sizeof(machines[0]); m++) {
		const struct recordmcount_desc *d = arch_lookup(machines[m])->rmc;

		for (unsigned i = 0; i < d->nr_image_forms; i++) {
			const struct mcount_call_form *f = &d->image_forms[i];

			some = 1;
			sane &= (f->unit == 1 || f->unit == 4) && f->units &&
				f->units <= MCOUNT_FORM_MAX && f->start <= 0 &&
				-f->start < f->units * f->unit;
		}
	}
	CHECK("image forms exist and are well-formed", some && sane);
}

int main(void)
{
	char dir[] = "/tmp/fntrace-unit-XXXXXX";

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/sub/" ID ".sites", dir);
	round_trip();
	malformed();
	where();
	image_forms();
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	rmdir(dir);
	return unit_done();
}
