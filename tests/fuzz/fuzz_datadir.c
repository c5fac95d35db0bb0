// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the data directory's text files (info, funcs-100,
 * args, enums) as the fuzzer makes them, around a fixed and sound
 * trace.dat of process 100: main calling parse, add3 and a C++ method,
 * with a marker.  The input is the four texts, separated by NUL bytes
 * (missing ones are absent files); the last byte chooses the view.
 * Whatever the texts, nothing may crash, leak or read out of bounds: a
 * reader refuses a directory in one line or shows what it can.
 */
#include "../../src/common/print.h"
#include "../../src/common/trace_format.h"
#include "../../src/trace/export.h"
#include "../../src/trace/info.h"
#include "../../src/trace/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const names[] = { "info", "funcs-100", "args", "enums" };
#define NR_TEXTS (sizeof(names) / sizeof(names[0]))

static char dir[64];

static void path_of(const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
}

static void put_file(const char *name, const void *data, size_t len)
{
	char path[128];
	FILE *f;

	path_of(name, path, sizeof(path));
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		abort();
}

static void remove_dir(void)
{
	char path[128];

	for (unsigned i = 0; i < NR_TEXTS; i++) {
		path_of(names[i], path, sizeof(path));
		unlink(path);
	}
	path_of("trace.dat", path, sizeof(path));
	unlink(path);
	rmdir(dir);
}

/* main { parse { add3 } ; method } and a marker, ids 1..4. */
static void put_trace(void)
{
	struct {
		struct ft_file_header h;
		struct ft_chunk c;
		uint32_t ev[12];
	} t = {
		.h = { .magic = FT_FILE_MAGIC, .version = FT_VERSION, .word_order = FT_WORD_ORDER },
		.c = { .pid = 100, .tid = 100, .start_time = 1000, .cpu = 0, .comm = "prog" },
	};
	unsigned n = 0;

	t.ev[n++] = ft_entry_word(1, 1);
	t.ev[n++] = ft_entry_word(2, 2);
	t.ev[n++] = ft_entry_word(3, 3);
	t.ev[n++] = ft_exit_word(4);
	t.ev[n++] = ft_exit_word(5);
	t.ev[n++] = ft_entry_word(4, 6);
	t.ev[n++] = ft_exit_word(7);
	t.ev[n++] = ft_exit_word(8);
	t.c.used = n * 4;
	put_file("trace.dat", &t, sizeof(t.h) + sizeof(t.c) + t.c.used);
}

static void make_dir(void)
{
	strcpy(dir, "/tmp/fntrace-fuzz-datadir.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
	put_trace();
}

static void put_texts(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	char path[128];

	for (unsigned t = 0; t < NR_TEXTS; t++) {
		const uint8_t *nul = p ? memchr(p, 0, end - p) : NULL;

		path_of(names[t], path, sizeof(path));
		unlink(path);
		if (!p)
			continue;
		put_file(names[t], p, (nul ? nul : end) - p);
		p = nul ? nul + 1 : NULL;
	}
}

static void view(unsigned which)
{
	struct report_options ro = { 0 };
	struct export_options eo = { .input = dir, .output = "/dev/null" };
	static const char *const formats[] = { "chrome", "perfetto", "folded" };
	FILE *out = fopen("/dev/null", "w");

	if (!out)
		abort();
	if (which >= 4) {
		eo.format = formats[which - 4];
		export_run(&eo);
	} else if (which == 3) {
		info_run(dir, out);
	} else {
		ro.stat = which == 1;
		ro.csv = which == 2;
		report_run(dir, out, &ro);
	}
	fclose(out);
}

/* The reader's messages, made as the user would read them (so that
 * their arguments are checked too), then dropped: thousands of runs a
 * second would bury the fuzzer's own log under them. */
static void drop_message(enum print_level level, const char *fmt, va_list ap)
{
	char line[512];

	vsnprintf(line, sizeof(line), fmt, ap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		make_dir();
		set_print(drop_message);
	}
	put_texts(data, size);
	view(size ? data[size - 1] % 7 : 0);
	return 0;
}
