// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the trace reader and everything that walks what it
 * reads (the graph and function views, --stat, the Chrome and Perfetto
 * exports, argument values and their names) on whatever trace.dat the
 * fuzzer makes.  The data directory around it is fixed and sound: a
 * function_graph recording of process 100's few functions, with -A
 * specs and enum names, so that the damage is all in the events
 * (tests/fuzz/run_trace.sh makes seeds of real recordings, moved to pid
 * 100).  The last input byte chooses the view; an odd-sized input is
 * written as segments of trace.dat (record --max-size).  Nothing may
 * crash, leak or read out of bounds; a bad trace may only show less.
 */
#include "../../src/common/print.h"
#include "../../src/common/trace_format.h"
#include "../../src/trace/export.h"
#include "../../src/trace/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

/* NAME of the len bytes at data, then the more bytes at rest. */
static void put_parts(const char *name, const void *data, size_t len,
		      const void *rest, size_t more)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len || fwrite(rest, 1, more, f) != more ||
	    fclose(f))
		abort();
}

static void put_file(const char *name, const void *data, size_t len)
{
	put_parts(name, data, len, "", 0);
}

static void remove_file(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

static void put_text(const char *name, const char *text)
{
	put_file(name, text, strlen(text));
}

static void remove_dir(void)
{
	static const char *const names[] = {
		"info", "funcs-100", "args", "enums", "trace.dat", "trace.dat.0", "trace.dat.7",
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		remove_file(names[i]);
	rmdir(dir);
}

/* Where the first chunk ends (all of it if it is cut short). */
static size_t first_chunk_end(const uint8_t *data, size_t size)
{
	size_t at = sizeof(struct ft_file_header);
	struct ft_chunk c;

	if (size < at + sizeof(c))
		return size;
	memcpy(&c, data + at, sizeof(c));
	at += sizeof(c);
	return c.used < size - at ? at + c.used : size;
}

/*
 * The input as trace.dat or, when its size is odd, as record --max-size
 * writes it: segments, here trace.dat.0 up to the end of the first
 * chunk and trace.dat.7 (a copy of the file header, then the rest).  The
 * chunks are the same, in the same order, read through the segments'
 * paths.
 */
static void put_trace(const uint8_t *data, size_t size)
{
	size_t head = size < sizeof(struct ft_file_header) ? size : sizeof(struct ft_file_header);
	size_t split = first_chunk_end(data, size);

	remove_file("trace.dat");
	remove_file("trace.dat.0");
	remove_file("trace.dat.7");
	if (size % 2 == 0) {
		put_file("trace.dat", data, size);
		return;
	}
	put_file("trace.dat.0", data, split);
	put_parts("trace.dat.7", data, head, data + split, size - split);
}

/* The directory, once: info, funcs, args and enums of a small program. */
static void make_dir(void)
{
	strcpy(dir, "/tmp/fntrace-fuzz-trace.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
	put_text("info", "fntrace-data: 1\ncommand: ./prog\ntracer: function_graph\n"
		 "pid: 100\nclock_sync: 1000 1000 2000 2000\noptions: retval\ndepth: 0\n"
		 "started: 1700000000\nnr_cpus: 2\nexit: status 0\nstate: sealed\n");
	put_text("funcs-100", "module 0 0x1000 0x1000 0x9000 /prog\n"
		 "func 1 0x1100 0 main\nfunc 2 0x1200 0 parse\nfunc 3 0x1300 0 add3\n"
		 "func 4 0x1400 0 _ZN4calc6Parser5parseEPKcl\nfunc 5 0x1500 0 points\n"
		 "func 6 0x1600 0 greet\nfunc 7 0x1700 0 area\nfunc 8 0x1800 0 outer\n");
	put_text("args", "parse@arg1/s:text,arg2/i32:len,farg1:scale,retval/f\n"
		 "add3@arg1,arg2/x,arg3/u8,retval/i32\n"
		 "points@arg1/i32:p.x,arg1+4/i32:p.y,arg2+4/f32:t.w,retval/i64\n");
	put_text("enums", "parse\t2\t5\tFIVE\nadd3\t0\t7\tSEVEN\n");
}

static void view(unsigned which)
{
	struct report_options ro = { 0 };
	struct export_options eo = { .input = dir, .output = "/dev/null" };
	static const char *const formats[] = { "chrome", "perfetto", "folded" };
	FILE *out;

	if (which >= 3) {
		eo.format = formats[which - 3];
		export_run(&eo);
		return;
	}
	ro.stat = which == 1;
	ro.csv = which == 2;
	out = fopen("/dev/null", "w");
	if (!out)
		abort();
	report_run(dir, out, &ro);
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
	put_trace(data, size);
	view(size ? data[size - 1] % 6 : 0);
	return 0;
}
