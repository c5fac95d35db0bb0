/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the report tests: writing synthetic data directories (an
 * event encoder that picks short or long forms as the runtime does) and
 * running report_run() with its output and stderr caught.
 *
 * Included by each report test program: static inline, so that one
 * needs not use them all.
 */
#ifndef FNTRACE_REPORT_FIXTURE_H
#define FNTRACE_REPORT_FIXTURE_H

#include "trace/report.h"
#include "common/trace_format.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures;
static char base[PATH_MAX];

static inline void pass(const char *name)
{
	printf("PASS: %s\n", name);
}

static inline void fail(const char *name, const char *why)
{
	printf("FAIL: %s: %s\n", name, why);
	failures++;
}

/* A fresh directory for the test's data directories, in base; -1 after
 * a FAIL line if there is none. */
static inline int fixture_begin(const char *test)
{
	snprintf(base, sizeof(base), "%s/fntrace-%s-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", test);
	if (!mkdtemp(base)) {
		fail("setup", "mkdtemp");
		return -1;
	}
	return 0;
}

/* The exit status; base is removed if every check passed, and kept to
 * look at otherwise. */
static inline int fixture_end(void)
{
	char cmd[PATH_MAX + 16];

	if (failures)
		return 1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", base);
	return 0;
}

/* ---- writing a data directory ---- */

/* Encodes one chunk's events as the runtime would: short forms when the
 * delta and id fit, else a long form, else an absolute TIME first. */
struct chunk {
	struct ft_chunk hdr;
	uint32_t w[256];
	unsigned n;
	uint64_t now;
};

static inline void chunk_start(struct chunk *c, uint32_t pid, uint32_t tid, uint64_t seq,
			uint64_t start, uint32_t cpu, const char *comm)
{
	memset(c, 0, sizeof(*c));
	c->hdr.pid = pid;
	c->hdr.tid = tid;
	c->hdr.seq = seq;
	c->hdr.start_time = start;
	c->hdr.cpu = cpu;
	/* Like the kernel's: NUL-terminated only when shorter than 16. */
	memcpy(c->hdr.comm, comm, strnlen(comm, sizeof(c->hdr.comm)));
	c->now = start;
}

static inline void put(struct chunk *c, uint32_t word)
{
	c->w[c->n++] = word;
}

static inline void put_u64(struct chunk *c, uint64_t v)
{
	put(c, (uint32_t)v);
	put(c, (uint32_t)(v >> 32));
}

/* The delta to t, after a TIME record if it would not fit in max. */
static inline uint32_t delta_to(struct chunk *c, uint64_t t, uint32_t max)
{
	uint64_t d = t - c->now;

	if (d > max) {
		put(c, ft_long_word(FT_LONG_TIME, 0));
		put_u64(c, t);
		d = 0;
	}
	c->now = t;
	return d;
}

static inline void entry(struct chunk *c, uint64_t t, uint32_t id)
{
	if (t - c->now <= FT_ENTRY_MAX_DELTA && id <= FT_ENTRY_MAX_ID) {
		put(c, ft_entry_word(id, delta_to(c, t, FT_ENTRY_MAX_DELTA)));
		return;
	}
	put(c, ft_long_word(FT_LONG_ENTRY, delta_to(c, t, FT_LONG_MAX_PAYLOAD)));
	put(c, id);
}

static inline void exit_plain(struct chunk *c, uint64_t t)
{
	put(c, ft_exit_word(delta_to(c, t, FT_EXIT_MAX_DELTA)));
}

static inline void exit_ret(struct chunk *c, uint64_t t, uint64_t value)
{
	put(c, ft_long_word(FT_LONG_EXIT_RET, delta_to(c, t, FT_LONG_MAX_PAYLOAD)));
	put_u64(c, value);
}

static inline void unwind(struct chunk *c, uint64_t t)
{
	put(c, ft_long_word(FT_LONG_UNWIND, delta_to(c, t, FT_LONG_MAX_PAYLOAD)));
}

static inline void func(struct chunk *c, uint64_t t, uint32_t id, uint64_t parent)
{
	put(c, ft_long_word(FT_LONG_FUNC, delta_to(c, t, FT_LONG_MAX_PAYLOAD)));
	put(c, id);
	put_u64(c, parent);
}

static inline void lost(struct chunk *c, uint64_t count, uint32_t depth)
{
	put(c, ft_long_word(FT_LONG_LOST, depth));
	put_u64(c, count);
}

static inline void cpu(struct chunk *c, uint32_t n)
{
	put(c, ft_long_word(FT_LONG_CPU, n));
}

static inline void marker(struct chunk *c, const char *text)
{
	uint32_t len = strlen(text), words = (len + 3) / 4;

	put(c, ft_long_word(FT_LONG_MARKER, len));
	memset(&c->w[c->n], 0, words * 4);
	memcpy(&c->w[c->n], text, len);
	c->n += words;
}

/* A stack trace, as the stacktrace trigger writes one: at time t (an
 * absolute TIME before it), nids function ids, then naddrs addresses. */
static inline void stack(struct chunk *c, uint64_t t, const uint32_t *ids, unsigned nids,
			 const uint64_t *addrs, unsigned naddrs)
{
	put(c, ft_long_word(FT_LONG_TIME, 0));
	put_u64(c, t);
	c->now = t;
	put(c, ft_stack_word(nids, naddrs));
	for (unsigned i = 0; i < nids; i++)
		put(c, ids[i]);
	for (unsigned i = 0; i < naddrs; i++)
		put_u64(c, addrs[i]);
}

/* ARGS events, laid out as the writer does. */
/* Starts an ARGS event; args_end() says how long it came out. */
static inline unsigned args_begin(struct chunk *c)
{
	put(c, 0);
	return c->n - 1;
}

static inline void args_end(struct chunk *c, unsigned at, uint32_t flags)
{
	c->w[at] = ft_long_word(FT_LONG_ARGS, (c->n - at - 1) | flags);
}

static inline void arg_int(struct chunk *c, unsigned type, unsigned pos, uint64_t v)
{
	put(c, ft_arg_head(type, pos, 8));
	put_u64(c, v);
}

static inline void arg_str(struct chunk *c, unsigned pos, const char *s)
{
	uint32_t len = strlen(s), words = (len + 3) / 4;

	put(c, ft_arg_head(FT_ARG_STRING, pos, len));
	memset(&c->w[c->n], 0, words * 4);
	memcpy(&c->w[c->n], s, len);
	c->n += words;
}

static inline char *path_of(const char *dir, const char *name)
{
	static char path[2 * PATH_MAX];	/* a new_dir() and a name */

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static inline void put_file(const char *dir, const char *name, const char *text)
{
	FILE *f = fopen(path_of(dir, name), "w");

	fputs(text, f);
	fclose(f);
}

static inline const char *new_dir(const char *name)
{
	static char dir[PATH_MAX + 64];

	snprintf(dir, sizeof(dir), "%s/%s", base, name);
	mkdir(dir, 0755);
	return dir;
}

/* A trace file NAME (trace.dat, or a segment of it: trace.dat.N) of the
 * chunks. */
static inline void put_trace_file(const char *dir, const char *name, struct chunk *chunks,
				  unsigned n)
{
	struct ft_file_header h = { .version = FT_VERSION, .word_order = 0x01020304 };
	FILE *f = fopen(path_of(dir, name), "w");

	memcpy(h.magic, FT_FILE_MAGIC, sizeof(h.magic));
	fwrite(&h, sizeof(h), 1, f);
	for (unsigned i = 0; i < n; i++) {
		chunks[i].hdr.used = chunks[i].n * 4;
		fwrite(&chunks[i].hdr, sizeof(chunks[i].hdr), 1, f);
		fwrite(chunks[i].w, 4, chunks[i].n, f);
	}
	fclose(f);
}

static inline void put_trace(const char *dir, struct chunk *chunks, unsigned n)
{
	put_trace_file(dir, "trace.dat", chunks, n);
}

/* ---- running the report ---- */

struct result {
	int status;
	char *out;
	char *err;
};

static inline char *read_all(FILE *f)
{
	char *s;
	long n;

	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(n + 1, 1);
	if (fread(s, 1, n, f) != (size_t)n)
		s[0] = '\0';
	return s;
}

/* Runs report_run with stderr caught in a temporary file. */
static inline struct result run(const char *dir, const struct report_options *o)
{
	struct result r;
	size_t len;
	FILE *out = open_memstream(&r.out, &len), *err = tmpfile();
	int saved = dup(2);

	fflush(stderr);
	dup2(fileno(err), 2);
	r.status = report_run(dir, out, o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fclose(out);
	r.err = read_all(err);
	fclose(err);
	return r;
}

static inline void free_result(struct result *r)
{
	free(r->out);
	free(r->err);
}

/* Shows the first line that differs, which is what one needs to fix it. */
static inline void explain_difference(const char *got, const char *want)
{
	unsigned line = 1;
	size_t i = 0, start = 0;

	while (got[i] && got[i] == want[i]) {
		if (got[i] == '\n') {
			line++;
			start = i + 1;
		}
		i++;
	}
	printf("  line %u differs:\n  got:  '%.*s'\n  want: '%.*s'\n", line,
	       (int)strcspn(got + start, "\n"), got + start,
	       (int)strcspn(want + start, "\n"), want + start);
}

static inline void expect_output(const char *name, const char *dir,
			  const struct report_options *o, const char *want)
{
	struct result r = run(dir, o);

	if (r.status != 0) {
		fail(name, "report_run failed");
		printf("  stderr: %s", r.err);
	} else if (strcmp(r.out, want)) {
		fail(name, "unexpected output");
		explain_difference(r.out, want);
	} else {
		pass(name);
	}
	free_result(&r);
}

/* An error: status 1, nothing on out, one "fntrace: " line naming it. */
static inline void expect_error(const char *name, const char *dir, const char *why)
{
	struct result r = run(dir, NULL);
	char *nl = strchr(r.err, '\n');

	if (r.status != 1)
		fail(name, "status is not 1");
	else if (strncmp(r.err, "fntrace: ", 9) || !strstr(r.err, why))
		fail(name, "stderr does not say why");
	else if (!nl || nl[1])
		fail(name, "stderr is not one line");
	else if (r.out[0])
		fail(name, "something was printed on out");
	else
		pass(name);
	if (r.status != 1 || !strstr(r.err, why))
		printf("  stderr: %s\n", r.err);
	free_result(&r);
}

#define INFO(tracer, extra)						\
	"fntrace-data: 1\ncommand: ./demo 3\ntracer: " tracer "\n"	\
	"clock_sync: 0 0 1000000000 1000000000\n" extra

#define GRAPH_HEADER							\
	"# tracer: function_graph\n"					\
	"#\n"								\
	"# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n" \
	"# |     |    |           |   |                     |   |   |   |\n"

#endif
