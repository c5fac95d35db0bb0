// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace cc [COMPILER ARGUMENTS]: the compiler, building for tracing.
 *
 * Every object it makes is compiled with the instrumentation that suits
 * the target (cc_instrument.c) and goes through recordmcount --nop at
 * once, so the linked program has a __mcount_loc table and runs at full
 * speed with no runtime loaded.  A command that compiles and links in one
 * go is split into one compile per source (into a temporary directory)
 * and the link.  No link gets -pg, which would pull in gprof's start-up
 * code, but an LTO link, which generates the code (cc_lto.c).  A link
 * whose objects were built for tracing must give an image with call
 * sites, or its output is removed and fntrace cc fails.  The cc_*.c files
 * named here are in src/cc/.
 */
#include "cli.h"
#include "../cc/cc.h"
#include "../record/datadir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	"                instead of taking the return address (faster, and stacks\n"
	"                as debuggers and sanitizers read them stay the program's);\n"
	"                with clang, the same nops made of XRay's sleds at returns\n"
	"                (-fxray-instrument -fxray-instrumentation-bundle=function-exit\n"
	"                -fxray-instruction-threshold=1 on compiles; no XRay runtime)\n"
	"  riscv64       -pg -ffunction-sections\n"
	"                (one section per function: ld's relaxation of other calls\n"
	"                then never moves a recorded site; the sites, nops, are not\n"
	"                relaxed, and every other call still is)\n"
	"  others        -pg               (i386 and x86_64 -m32, aarch64, mips)\n"
	"  patchable     -fpatchable-function-entry=N, the compiler's own table,\n"
	"                for clang's -flto (code made in the linker) and gcc's\n"
	"                -mcmodel=large on x86_64 (no 5-byte call to __fentry__);\n"
	"                clang's -flto for mips is refused; on x86_64 and aarch64\n"
	"                clang's -flto gets XRay's return sleds too, made return\n"
	"                sites in the image once the link is done\n\n"
	"-c compiles record their objects; a compile and link in one command is\n"
	"split into a compile per source and the link.  Links never get -pg (it\n"
	"would pull in gprof's start-up code), but gcc's LTO links, which make\n"
	"the code: they get the compiles' flags and -B DIR/, whose 'as' records\n"
	"each object it assembles and whose gcrt1.o is the usual start file.\n"
	"-fomit-frame-pointer, which gcc refuses beside -pg, is left out of\n"
	"instrumented compiles (on x86_64 the code is the same; elsewhere a line\n"
	"says so).  A program or library linked from objects with call sites or\n"
	"LTO code that has none, or whose sites no symbol names (clang's -flto\n"
	"linked with -s), is removed, and fntrace cc fails.  -E, -S, -M,\n"
	"-MM, -fsyntax-only, -x without -c -o, and commands without input files\n"
	"run as they are.  The words of @FILE arguments are read and passed on\n"
	"as arguments.  A -static (or -static-pie) program gets the runtime\n"
	"linked in (libfntrace.a), dormant unless fntrace record or run starts it.\n\n"
	"  -h, --help    alone: this text (beside other arguments, the compiler's)\n\n"
	"exit status: the compiler's (128+N if signal N killed it); fntrace's\n"
	"own failure 1, said in a line (see 'fntrace --help')\n";

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

/* The compiler with the flags (if any) and the arguments the
 * instrumentation keeps (all, without instrumentation). */
static int run_all(const struct cmd *cc, const struct cc_instr *in, const struct cc_args *a)
{
	struct cmd c;
	int ret = cc_start_cmd(&c, cc, in ? &in->flags : NULL);

	for (int i = 0; i < a->argc && !ret; i++)
		if (!in || cc_keeps_arg(in, a, i))
			ret = cmd_push(&c, a->argv[i]);
	ret = ret ? CLI_EXIT_FAILED : cc_run(&c);
	free(c.v);
	return ret;
}

/* Patchable entries come with the compiler's own table: nothing to
 * record (and clang's LTO objects are bitcode, not ELF). */
static int compile_only(const struct cmd *cc, const struct cc_instr *in,
			const struct cc_args *a)
{
	int ret = run_all(cc, in, a);

	return ret || !cc_records(in) ? ret : record_outputs(a);
}

/* The image a link made, where fntrace cc can tell.  ("-": stdout.) */
static const char *link_output(const struct cc_args *a)
{
	return a->out ? a->out : "a.out";
}

/* Objects built for tracing must give an image with call sites, and
 * symbols to name their functions. */
static int check_image(const struct cc_args *a, unsigned kinds)
{
	const char *out = link_output(a);
	unsigned unnamed = 0;

	if (!(kinds & (CC_OBJ_TABLE | CC_OBJ_LTO)) || !strcmp(out, "-"))
		return 0;
	if (cc_image_has_table(out) && !(unnamed = cc_image_unnamed_sites(out)))
		return 0;
	if (unnamed)
		cli_error("cc: %s: its %u call sites name no function: the link stripped the "
			  "symbols that name them (-s), and no table of fntrace's does (clang's "
			  "LTO code has none): link without -s (strip --strip-debug keeps "
			  "them): removed", out, unnamed);
	else if (kinds & CC_OBJ_LTO)
		cli_error("cc: %s has no call sites: its LTO code got none (objects fntrace cc "
			  "did not compile?): removed", out);
	else
		cli_error("cc: %s has no call sites, though its objects had them: removed", out);
	unlink(out);
	return CLI_EXIT_FAILED;
}

/* clang's LTO code: the image's XRay sleds made return sites, as an
 * object's are; an image that cannot be rewritten is removed. */
static int image_return_sites(const struct cc_args *a)
{
	const char *out = link_output(a);

	if (!strcmp(out, "-") || rmc_image_return_sites(out) == 0)
		return 0;
	unlink(out);
	return CLI_EXIT_FAILED;
}

/* An LTO link gets what its code generation needs (cc_lto.c): the
 * compiles' instrumentation (which may leave arguments out, in) and
 * tools in dir. */
static int lto_options(const struct cmd *cc, const struct cc_args *a, const char *dir,
		       struct cmd *c, struct cc_instr *in, char **owned)
{
	*owned = NULL;
	return cc_instrument(cc, a, 1, in) || cc_lto_prepare(cc, in, a, dir, c, owned) ? -1 : 0;
}

/* The start-up object, made in dir, goes first. */
static int push_startup(struct cmd *c, const struct cmd *cc, const struct cc_args *a,
			const char *dir, char **startup)
{
	*startup = cc_startup_object(cc, a, dir);
	if (!*startup)
		cli_error("cc: cannot compile the object that starts fntrace's runtime");
	return !*startup || cmd_push(c, *startup);
}

/* The link: every argument but -pg, each source replaced by its object.
 * A program or a library (an image) gets the object that starts the
 * runtime (or shows it the library) before its constructors, made in dir
 * (cc_startup.c); a static program, the runtime itself (cc_static.c);
 * its LTO link gets its options (cc_lto.c), and clang's LTO code its
 * return sites; it must have call sites if its objects did.  A partial
 * link (-r) gets none of it. */
static int link_objects(const struct cmd *cc, const struct cc_args *a, char **objs,
			int nobjs, const char *dir)
{
	int image = dir && cc_link_kind(a) != CC_LINKS_OBJECT;
	unsigned kinds = image ? cc_input_kinds(a, objs, nobjs) : 0;
	int lto = image && cc_lto_link(a, kinds);
	struct cc_instr in = { 0 };
	char *startup = NULL, *owned = NULL, *runtime = NULL;
	struct cmd c;
	int ret = cc_start_cmd(&c, cc, NULL);

	if (!ret && lto)
		ret = lto_options(cc, a, dir, &c, &in, &owned);
	if (!ret && image)
		ret = push_startup(&c, cc, a, dir, &startup);
	for (int i = 0, k = 0; i < a->argc && !ret; i++) {
		if (a->role[i] == CC_PG || (lto && !cc_keeps_arg(&in, a, i)))
			continue;
		ret = cmd_push(&c, a->role[i] == CC_SRC && objs ? objs[k++] : a->argv[i]);
	}
	if (!ret && startup && cc_links_static(a))
		ret = !(runtime = cc_static_runtime(&c, startup));
	ret = ret ? CLI_EXIT_FAILED : cc_run(&c);
	if (!ret && image)
		ret = check_image(a, kinds);
	if (!ret && in.sleds_at_link)
		ret = image_return_sites(a);
	cc_instr_free(&in);
	free(c.v);
	free(startup);
	free(runtime);
	free(owned);
	return ret;
}

/* Objects only: the link, with a directory for its start-up object and
 * LTO tools, but for a partial link (-r). */
static int link_only(const struct cmd *cc, const struct cc_args *a)
{
	char dir[4096];
	int ret;

	if (cc_link_kind(a) == CC_LINKS_OBJECT)
		return link_objects(cc, a, NULL, 0, NULL);
	if (cli_make_temp_dir(dir, sizeof(dir), "fntrace-cc"))
		return CLI_EXIT_FAILED;
	ret = link_objects(cc, a, NULL, 0, dir);
	datadir_remove(dir);
	return ret;
}

static int has_arg_prefix(const struct cc_args *a, const char *prefix)
{
	for (int i = 0; i < a->argc; i++)
		if (!strncmp(a->argv[i], prefix, strlen(prefix)))
			return 1;
	return 0;
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
static int compile_one(const struct cmd *cc, const struct cc_instr *in,
		       const struct cc_args *a, const char *src, const char *obj)
{
	char *names[2] = { NULL, NULL };
	struct cmd c;
	int ret = cc_start_cmd(&c, cc, &in->flags);

	for (int i = 0; i < a->argc && !ret; i++)
		if ((a->role[i] == CC_OPT || a->role[i] == CC_PG) && cc_keeps_arg(in, a, i))
			ret = cmd_push(&c, a->argv[i]);
	ret = ret || dependency_options(&c, a, src, names);
	ret = ret || cmd_push(&c, "-c") || cmd_push(&c, src) || cmd_push(&c, "-o") || cmd_push(&c, obj);
	ret = ret ? CLI_EXIT_FAILED : cc_run(&c);
	free(c.v);
	free(names[0]);
	free(names[1]);
	return ret || !cc_records(in) ? ret : record(obj);
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

static int compile_and_link(const struct cmd *cc, const struct cc_instr *in,
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
		ret = objs[k] ? compile_one(cc, in, a, a->argv[i], objs[k]) : CLI_EXIT_FAILED;
		k++;
	}
	if (!ret)
		ret = link_objects(cc, a, objs, k, dir);
	while (k--)
		free(objs[k]);
	free(objs);
	datadir_remove(dir);	/* with whatever else the compiler put there */
	return ret;
}

static int dispatch(const struct cmd *cc, const struct cc_args *a)
{
	struct cc_instr in;
	int ret;

	if (a->mode == CC_UNTOUCHED)
		return run_all(cc, NULL, a);
	if (a->mode == CC_LINK_ONLY)
		return link_only(cc, a);	/* drops only -pg, but for LTO */
	if (cc_instrument(cc, a, a->lto > 0, &in)) {
		cc_instr_free(&in);
		return CLI_EXIT_FAILED;
	}
	cc_instr_note(&in);
	ret = a->mode == CC_COMPILE ? compile_only(cc, &in, a) : compile_and_link(cc, &in, a);
	cc_instr_free(&in);
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
