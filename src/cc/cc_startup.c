// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace cc: what it links starts the runtime, or shows it a new
 * module, before any constructor of its own runs.  The sites fntrace cc
 * makes are nops until the runtime patches them, and the runtime's
 * constructor comes late: glibc runs the constructors of the libraries a
 * program links before those of a preloaded libfntrace.so, and a
 * dlopen()ed library's inside dlopen, before the wrapper sees it.  The
 * calls those constructors make would go unseen.  So every link gets one
 * more object, compiled here, with a weak reference to the runtime (not
 * loaded: nothing happens):
 *  - a program's calls fntrace_preinit from its .preinit_array, which
 *    glibc runs before any library's initialisation;
 *  - a shared library's calls fntrace_module_init from the first entry
 *    of its .init_array, before the library's own constructors.
 */
#include "cc.h"
#include "../cli/exit_status.h"
#include "../common/fileio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char program_source[] =
	"/* fntrace cc: start fntrace's runtime, if loaded, before every constructor. */\n"
	"extern void fntrace_preinit(int, char **, char **) __attribute__((weak));\n"
	"static void fntrace_cc_preinit(int argc, char **argv, char **envp)\n"
	"{\n"
	"\tif (fntrace_preinit)\n"
	"\t\tfntrace_preinit(argc, argv, envp);\n"
	"}\n"
	"__attribute__((section(\".preinit_array\"), used))\n"
	"static void (*fntrace_cc_preinit_entry)(int, char **, char **) = fntrace_cc_preinit;\n";

static const char library_source[] =
	"/* fntrace cc: show fntrace's runtime, if loaded, this library before its constructors. */\n"
	"extern void fntrace_module_init(const void *) __attribute__((weak));\n"
	"static void fntrace_cc_init(void)\n"
	"{\n"
	"\tif (fntrace_module_init)\n"
	"\t\tfntrace_module_init((const void *)fntrace_cc_init);\n"
	"}\n"
	"__attribute__((section(\".init_array.00000\"), used))\n"
	"static void (*fntrace_cc_init_entry)(void) = fntrace_cc_init;\n";

enum cc_link_kind cc_link_kind(const struct cc_args *a)
{
	if (cc_has_arg(a, "-r") || cc_has_arg(a, "-Wl,-r"))
		return CC_LINKS_OBJECT;
	if (cc_has_arg(a, "-shared") || cc_has_arg(a, "-Wl,-shared") ||
	    cc_has_arg(a, "-Wl,--shared"))
		return CC_LINKS_LIBRARY;
	return CC_LINKS_PROGRAM;
}

/* No warning or dependency option. */
int cc_abi_option(const struct cc_args *a, int i)
{
	const char *s = a->argv[i];

	if (a->role[i] != CC_OPT && a->role[i] != CC_LINK)
		return 0;
	if (i > 0 && (!strcmp(a->argv[i - 1], "-target") || !strcmp(a->argv[i - 1], "-B")))
		return 1;
	return !strncmp(s, "-m", 2) || !strncmp(s, "-f", 2) || !strcmp(s, "-target") ||
	       !strncmp(s, "--target=", 9) || !strncmp(s, "--sysroot", 9) || !strncmp(s, "-B", 2);
}

static int compile(const struct cmd *cc, const struct cc_args *a, const char *src,
		   const char *obj)
{
	struct cmd c = { 0 };
	int ret = 0;

	for (int i = 0; i < cc->n && !ret; i++)
		ret = cmd_push(&c, cc->v[i]);
	for (int i = 0; i < a->argc && !ret; i++)
		if (cc_abi_option(a, i))
			ret = cmd_push(&c, a->argv[i]);
	/* Never LTO bitcode: an LTO link would instrument its code. */
	ret = ret || cmd_push(&c, "-O2") || cmd_push(&c, "-fPIC") || cmd_push(&c, "-fno-lto") ||
	      cmd_push(&c, "-w") || cmd_push(&c, "-c") || cmd_push(&c, "-x") || cmd_push(&c, "c") ||
	      cmd_push(&c, src) || cmd_push(&c, "-o") || cmd_push(&c, obj);
	ret = ret ? CLI_EXIT_FAILED : cc_run(&c);
	free(c.v);
	return ret;
}

char *cc_startup_object(const struct cmd *cc, const struct cc_args *a, const char *dir)
{
	const char *text = cc_link_kind(a) == CC_LINKS_PROGRAM ? program_source : library_source;
	char *src = NULL, *obj = NULL;
	int ret = asprintf(&src, "%s/fntrace-startup.c", dir) < 0 ||
		  asprintf(&obj, "%s/fntrace-startup.o", dir) < 0 ||
		  replace_file(src, text, strlen(text), 0644) ||
		  compile(cc, a, src, obj);

	free(src);
	if (!ret)
		return obj;
	free(obj);
	return NULL;
}
