// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace cc [COMPILER ARGUMENTS]: the compiler, building for tracing.
 *
 * Every object it makes is compiled with the instrumentation that suits
 * the target and goes through recordmcount --nop at once, so the linked
 * program has a __mcount_loc table and runs at full speed with no runtime
 * loaded.  A command that compiles and links in one go is split into one
 * compile per source (into a temporary directory) and the link.  No link
 * ever gets -pg: it would pull in gprof's start-up code.
 */
#include "cli.h"
#include "cc.h"
#include "../common/array.h"
#include "datadir.h"
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* gcc's return sites (x86): a 5-byte nop before every return, listed in
 * __return_loc, which the runtime patches instead of taking the return
 * address (src/core/returns.c). */
#define RETURN_SITES_FLAG	"-minstrument-return=nop5"
#define RECORD_RETURN_FLAG	"-mrecord-return"

static const char help[] =
	"usage: fntrace cc [COMPILER ARGUMENTS]\n"
	"       fntrace c++ [COMPILER ARGUMENTS]\n"
	"       make CC=\"fntrace cc\" CXX=\"fntrace c++\"\n\n"
	"Runs the compiler ($FNTRACE_CC, default cc; for c++, $FNTRACE_CXX, default\n"
	"c++; gcc or clang, native or cross,\n"
	"e.g. FNTRACE_CC=riscv64-linux-gnu-gcc) with the instrumentation that suits\n"
	"its target ($FNTRACE_CC -dumpmachine), and records every object it makes\n"
	"with 'fntrace recordmcount --nop': the program gets a __mcount_loc table,\n"
	"runs at full speed without fntrace, and is traced by fntrace record.\n\n"
	"  x86_64        -pg -mfentry      (6-byte GOT calls in a PIE become 6-byte nops)\n"
	"                and, with gcc, -minstrument-return=nop5 -mrecord-return: a\n"
	"                nop before every return, which the graph tracer patches\n"
	"                instead of taking the return address (faster)\n"
	"  riscv64       -pg -ffunction-sections\n"
	"                (one section per function: ld's relaxation of other calls\n"
	"                then never moves a recorded site; the sites, nops, are not\n"
	"                relaxed, and every other call still is)\n"
	"  others        -pg               (i386 and x86_64 -m32, aarch64, mips)\n\n"
	"-c compiles record their objects; a compile and link in one command is\n"
	"split into a compile per source and the link; links never get -pg (it\n"
	"would pull in gprof's start-up code).  A -static (or -static-pie) program\n"
	"gets the runtime linked in (libfntrace.a), dormant unless fntrace record\n"
	"or run starts it.  -E, -S, -M, -MM, -fsyntax-only,\n"
	"-x without -c -o, and commands without input files run as they are.  The\n"
	"words of @FILE arguments are read and passed on as arguments.\n\n"
	"exit status: the compiler's (128+N if signal N killed it); fntrace's\n"
	"own failure 1, said in a line (see 'fntrace --help')\n";

int cmd_push(struct cmd *c, const char *s)
{
	if (grow_array((void **)&c->v, &c->cap, c->n + 2, sizeof(*c->v)))
		return -1;
	c->v[c->n++] = (char *)s;
	c->v[c->n] = NULL;
	return 0;
}

/* $variable split at blanks ("clang --target=..." works), or fallback. */
static int compiler_words(struct cmd *c, char **copy, const char *variable,
			  const char *fallback)
{
	const char *cc = getenv(variable);
	int ret = 0;

	*copy = strdup(cc && *cc ? cc : fallback);
	if (!*copy)
		return -1;
	for (char *w = strtok(*copy, " \t"); w && !ret; w = strtok(NULL, " \t"))
		ret = cmd_push(c, w);
	return c->n ? ret : -1;
}

/* Run argv and wait: its exit status, 128 + the signal that killed it,
 * or -1 after one line if it could not be started. */
static int run(char **argv, posix_spawn_file_actions_t *fa)
{
	pid_t pid;
	int status, err = posix_spawnp(&pid, argv[0], fa, NULL, argv, environ);

	if (err) {
		cli_error("cannot run %s: %s", argv[0], strerror(err));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			cli_error("cannot wait for %s: %s", argv[0], strerror(errno));
			return -1;
		}
	}
	return record_exit_code(status);
}

int cc_run(const struct cmd *c)
{
	int status = c->v ? run(c->v, NULL) : -1;

	return status < 0 ? CLI_EXIT_FAILED : status;
}

static int append(struct cmd *c, const struct cmd *more)
{
	for (int i = 0; i < more->n; i++)
		if (cmd_push(c, more->v[i]))
			return -1;
	return 0;
}

/* A new command: the compiler's words, then the flags if any. */
static int start_cmd(struct cmd *c, const struct cmd *cc, const struct cmd *flags)
{
	memset(c, 0, sizeof(*c));
	return append(c, cc) || (flags && append(c, flags)) ? -1 : 0;
}

/* The first line "$CC -dumpmachine" prints, the target triple, into buf:
 * 0, the compiler's exit status, or -1 if it could not be started (said). */
static int target_triple(const struct cmd *cc, char *buf, size_t len)
{
	posix_spawn_file_actions_t fa;
	struct cmd c;
	ssize_t n = -1;
	int fd[2], status = 1;

	if (start_cmd(&c, cc, NULL) == 0 && cmd_push(&c, "-dumpmachine") == 0 && pipe(fd) == 0) {
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
		posix_spawn_file_actions_addclose(&fa, fd[0]);
		posix_spawn_file_actions_addclose(&fa, fd[1]);
		/* A triple fits in the pipe: the compiler is done before we read. */
		status = run(c.v, &fa);
		posix_spawn_file_actions_destroy(&fa);
		close(fd[1]);
		if (status == 0)
			n = read(fd[0], buf, len - 1);
		close(fd[0]);
	}
	free(c.v);
	if (status)
		return status;
	if (n <= 0)
		return CLI_EXIT_FAILED;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int has_arg_prefix(const struct cc_args *a, const char *prefix)
{
	for (int i = 0; i < a->argc; i++)
		if (!strncmp(a->argv[i], prefix, strlen(prefix)))
			return 1;
	return 0;
}

/*
 * The instrumentation for the target.  x86_64: -mfentry puts the call at
 * the entry, before the frame set-up, so a nopped site costs one nop and
 * nothing else.  riscv64: see the help text; a per-object table is right
 * after relaxation only if no relaxable code precedes a site in its
 * section, and the prologue before gcc's call holds none.
 */
/* Does the compiler take gcc's return sites?  gcc (9 and later) does;
 * clang refuses the flags, even beside -dumpmachine. */
static int takes_return_sites(const struct cmd *cc)
{
	posix_spawn_file_actions_t fa;
	struct cmd c;
	int status = 1;

	if (start_cmd(&c, cc, NULL) == 0 && cmd_push(&c, "-dumpmachine") == 0 &&
	    cmd_push(&c, RETURN_SITES_FLAG) == 0 && cmd_push(&c, RECORD_RETURN_FLAG) == 0) {
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
		status = run(c.v, &fa);
		posix_spawn_file_actions_destroy(&fa);
	}
	free(c.v);
	return status == 0;
}

static int instrument(const struct cmd *cc, const struct cc_args *a, struct cmd *out)
{
	char triple[128];
	int ret = 0;

	memset(out, 0, sizeof(*out));
	ret = target_triple(cc, triple, sizeof(triple));
	if (ret) {
		if (ret > 0)		/* else not started: run() said so */
			cli_error("cc: '%s -dumpmachine' does not say the target", cc->v[0]);
		return -1;
	}
	ret |= cmd_push(out, "-pg");
	if (!strncmp(triple, "x86_64", 6) && !cc_has_arg(a, "-m32") && !cc_has_arg(a, "-mx32")) {
		ret |= cmd_push(out, "-mfentry");
		if (takes_return_sites(cc))
			ret |= cmd_push(out, RETURN_SITES_FLAG) | cmd_push(out, RECORD_RETURN_FLAG);
	}
	if (!strncmp(triple, "riscv", 5))
		ret |= cmd_push(out, "-ffunction-sections");
	return ret;
}

/* recordmcount --nop, as its own command would; its messages say which
 * object was refused and why. */
static int record(const char *obj)
{
	char *argv[] = { "recordmcount", "--nop", "--", (char *)obj, NULL };

	return cmd_recordmcount(4, argv);
}

static const char *base_name(const char *path)
{
	return strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
}

/* path with its suffix replaced (or added): prog.exe, ".d": prog.d. */
static char *with_suffix(const char *path, const char *suffix)
{
	const char *base = base_name(path);
	const char *dot = strrchr(base, '.');
	int stem = dot && dot != base ? (int)(dot - path) : (int)strlen(path);
	char *s = NULL;

	return asprintf(&s, "%.*s%s", stem, path, suffix) < 0 ? NULL : s;
}

/* The object "cc -c" makes of src without -o: its base name, suffix .o. */
static char *default_object(const char *src)
{
	return with_suffix(base_name(src), ".o");
}

/* Record each object a -c compile made; an object that cannot be
 * recorded is removed, so that make does not take it for done. */
static int record_outputs(const struct cc_args *a)
{
	int ret = 0;

	if (a->out)
		return strcmp(a->out, "-") && record(a->out) ? (unlink(a->out), 1) : 0;
	for (int i = 0; i < a->argc; i++) {
		char *obj;

		if (a->role[i] != CC_SRC)
			continue;
		obj = default_object(a->argv[i]);
		if (!obj || record(obj)) {
			if (obj)
				unlink(obj);
			ret = CLI_EXIT_FAILED;
		}
		free(obj);
	}
	return ret;
}

/* The compiler with the flags (if any) and every argument as given. */
static int run_all(const struct cmd *cc, const struct cmd *flags, const struct cc_args *a)
{
	struct cmd c;
	int ret = start_cmd(&c, cc, flags);

	for (int i = 0; i < a->argc && !ret; i++)
		ret = cmd_push(&c, a->argv[i]);
	ret = ret ? CLI_EXIT_FAILED : cc_run(&c);
	free(c.v);
	return ret;
}

static int compile_only(const struct cmd *cc, const struct cmd *flags,
			const struct cc_args *a)
{
	int ret = run_all(cc, flags, a);

	return ret ? ret : record_outputs(a);
}

/* The link: every argument but -pg, each source replaced by its object;
 * a program or a library gets the object that starts the runtime (or
 * shows it the library) before its constructors, made in dir
 * (cc_startup.c); a static program, the runtime itself (cc_static.c). */
static int link_objects(const struct cmd *cc, const struct cc_args *a, char **objs,
			const char *dir)
{
	char *startup = NULL, *runtime = NULL;
	struct cmd c;
	int ret = start_cmd(&c, cc, NULL);

	if (!ret && dir && cc_link_kind(a) != CC_LINKS_OBJECT) {
		startup = cc_startup_object(cc, a, dir);
		if (!startup)
			cli_error("cc: cannot compile the object that starts fntrace's runtime");
		ret = !startup || cmd_push(&c, startup);
	}
	for (int i = 0, k = 0; i < a->argc && !ret; i++) {
		if (a->role[i] == CC_PG)
			continue;
		ret = cmd_push(&c, a->role[i] == CC_SRC && objs ? objs[k++] : a->argv[i]);
	}
	if (!ret && startup && cc_links_static(a))
		ret = !(runtime = cc_static_runtime(&c, startup));
	ret = ret ? CLI_EXIT_FAILED : cc_run(&c);
	free(c.v);
	free(startup);
	free(runtime);
	return ret;
}

/* Objects only: the link, with a directory for the start-up object. */
static int link_only(const struct cmd *cc, const struct cc_args *a)
{
	char dir[4096];
	int ret;

	if (cc_link_kind(a) == CC_LINKS_OBJECT)
		return link_objects(cc, a, NULL, NULL);
	if (cli_make_temp_dir(dir, sizeof(dir), "fntrace-cc"))
		return CLI_EXIT_FAILED;
	ret = link_objects(cc, a, NULL, dir);
	datadir_remove(dir);
	return ret;
}

/*
 * -MD or -MMD in a command that is split: the dependency file and the
 * target it names are the ones the command would have made (after -o,
 * else after the source, as for a -c compile), not the temporary
 * object's.  names[] gets the strings to free.
 */
static int dependency_options(struct cmd *c, const struct cc_args *a, const char *src,
			      char *names[2])
{
	const char *stem = a->out ? a->out : base_name(src);

	if (!cc_has_arg(a, "-MD") && !cc_has_arg(a, "-MMD"))
		return 0;
	if (!has_arg_prefix(a, "-MT") && !has_arg_prefix(a, "-MQ") &&
	    (!(names[0] = a->out ? strdup(a->out) : default_object(src)) ||
	     cmd_push(c, "-MT") || cmd_push(c, names[0])))
		return -1;
	if (!has_arg_prefix(a, "-MF") &&
	    (!(names[1] = with_suffix(stem, ".d")) || cmd_push(c, "-MF") || cmd_push(c, names[1])))
		return -1;
	return 0;
}

/* One source of a compile-and-link: the compile options, -c, into obj. */
static int compile_one(const struct cmd *cc, const struct cmd *flags,
		       const struct cc_args *a, const char *src, const char *obj)
{
	char *names[2] = { NULL, NULL };
	struct cmd c;
	int ret = start_cmd(&c, cc, flags);

	for (int i = 0; i < a->argc && !ret; i++)
		if (a->role[i] == CC_OPT || a->role[i] == CC_PG)
			ret = cmd_push(&c, a->argv[i]);
	ret = ret || dependency_options(&c, a, src, names);
	ret = ret || cmd_push(&c, "-c") || cmd_push(&c, src) || cmd_push(&c, "-o") || cmd_push(&c, obj);
	ret = ret ? CLI_EXIT_FAILED : cc_run(&c);
	free(c.v);
	free(names[0]);
	free(names[1]);
	return ret ? ret : record(obj);
}

/* DIR/K-NAME.o for the k-th source: distinct even for a.c and sub/a.c. */
static char *temp_object(const char *dir, int k, const char *src)
{
	char *base = default_object(src), *obj = NULL;

	if (base && asprintf(&obj, "%s/%d-%s", dir, k, base) < 0)
		obj = NULL;
	free(base);
	return obj;
}

static int compile_and_link(const struct cmd *cc, const struct cmd *flags,
			    const struct cc_args *a)
{
	char dir[4096], **objs = calloc(a->nsrc, sizeof(*objs));
	int ret = 0, k = 0;

	if (!objs || cli_make_temp_dir(dir, sizeof(dir), "fntrace-cc")) {
		free(objs);
		return CLI_EXIT_FAILED;
	}
	for (int i = 0; i < a->argc && !ret; i++) {
		if (a->role[i] != CC_SRC)
			continue;
		objs[k] = temp_object(dir, k, a->argv[i]);
		ret = objs[k] ? compile_one(cc, flags, a, a->argv[i], objs[k]) : CLI_EXIT_FAILED;
		k++;
	}
	if (!ret)
		ret = link_objects(cc, a, objs, dir);
	while (k--)
		free(objs[k]);
	free(objs);
	datadir_remove(dir);	/* with whatever else the compiler put there */
	return ret;
}

static int dispatch(const struct cmd *cc, const struct cc_args *a)
{
	struct cmd flags;
	int ret;

	if (a->mode == CC_UNTOUCHED)
		return run_all(cc, NULL, a);
	if (a->mode == CC_LINK_ONLY)
		return link_only(cc, a);	/* drops only -pg */
	if (instrument(cc, a, &flags))
		ret = CLI_EXIT_FAILED;
	else if (a->mode == CC_COMPILE)
		ret = compile_only(cc, &flags, a);
	else
		ret = compile_and_link(cc, &flags, a);
	free(flags.v);
	return ret;
}

static int compile(int argc, char **argv, const char *variable, const char *fallback)
{
	struct cc_args a;
	struct cmd cc = { 0 };
	char *words = NULL, **args = NULL;
	int nargs, ret = CLI_EXIT_FAILED;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(help, stdout);
		return CLI_EXIT_OK;
	}
	if (compiler_words(&cc, &words, variable, fallback) ||
	    cc_expand_response_files(argc - 1, argv + 1, &nargs, &args) ||
	    cc_args_parse(&a, nargs, args)) {
		cli_error("cc: out of memory");
	} else {
		ret = dispatch(&cc, &a);
		cc_args_free(&a);
	}
	cc_free_words(args);
	free(cc.v);
	free(words);
	return ret;
}

int cmd_cc(int argc, char **argv)
{
	return compile(argc, argv, "FNTRACE_CC", "cc");
}

int cmd_cxx(int argc, char **argv)
{
	return compile(argc, argv, "FNTRACE_CXX", "c++");
}
