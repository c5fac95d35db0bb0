// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace cc: what a compiler command line asks for.  Each argument gets a
 * role, so that the command can be split into one compile per source and
 * a link, and -pg kept away from the link: the roles say which arguments
 * go to which step.
 */
#include "cc.h"

#include <stdlib.h>
#include <string.h>

/* Options whose value is the next argument, when not joined to them. */
static const char *const with_value[] = {
	"-o", "-x", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter",
	"-iprefix", "-iwithprefix", "-iwithprefixbefore", "-iquote", "-isysroot",
	"-imultilib", "-MF", "-MT", "-MQ", "-L", "-l", "-Xlinker", "-Xassembler",
	"-Xpreprocessor", "-Xclang", "-T", "-u", "-z", "-e", "--param", "-aux-info",
	"-B", "-target", "-G",
};

/* Options only a link reads: a compile step leaves them out, or clang
 * warns that they are unused. */
static const char *const link_only[] = {
	"-shared", "-static", "-pie", "-no-pie", "-rdynamic", "-nostdlib", "-nostartfiles",
	"-nodefaultlibs", "-s", "-static-libgcc", "-shared-libgcc", "-static-pie",
	"-Xlinker", "-T", "-u", "-z", "-e", "-L", "-l",
};

/* Options after which nothing is compiled into an object: left alone. */
static const char *const no_object[] = {
	"-E", "-S", "-M", "-MM", "-fsyntax-only", "-###",
};

static const char *const source_suffixes[] = {
	".c", ".i", ".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C", ".ii", ".m",
	".mi", ".mm", ".M", ".mii", ".s", ".S", ".sx",
};

#define IN(list, s) in_list(list, sizeof(list) / sizeof(list[0]), s)

static int in_list(const char *const *list, unsigned n, const char *s)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

/* Does the name say it is a source file (C, C++, assembler)? */
static int cc_is_source(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot && dot != path && dot[-1] != '/' && IN(source_suffixes, dot);
}

/* -lm, -L/dir, -Wl,... and -fuse-ld=... are link options in joined form. */
static int is_link_only(const char *a)
{
	return IN(link_only, a) || !strncmp(a, "-l", 2) || !strncmp(a, "-L", 2) ||
	       !strncmp(a, "-T", 2) || !strncmp(a, "-Wl,", 4) || !strncmp(a, "-fuse-ld=", 9);
}

/* The options that change how fntrace cc instruments: the last one of
 * each kind counts, as for the compiler. */
static void note_option(struct cc_args *a, const char *s)
{
	if (!strcmp(s, "-flto") || !strncmp(s, "-flto=", 6))
		a->lto = 1;
	else if (!strcmp(s, "-fno-lto"))
		a->lto = 0;
	else if (!strcmp(s, "-fomit-frame-pointer"))
		a->omit_fp = 1;
	else if (!strcmp(s, "-fno-omit-frame-pointer"))
		a->omit_fp = 0;
	else if (!strncmp(s, "-mcmodel=", 9))
		a->cmodel = s + 9;
}

/* The role of option argv[i]; its separate value, if any, gets *value_role. */
static enum cc_role option_role(struct cc_args *a, int i, enum cc_role *value_role)
{
	const char *s = a->argv[i];

	*value_role = CC_OPT;
	note_option(a, s);
	if (!strcmp(s, "-c"))
		a->compile_only = 1;
	else if (IN(no_object, s))
		a->untouched = 1;
	else if (!strncmp(s, "-x", 2))
		a->lang = 1;
	if (!strncmp(s, "-o", 2)) {
		a->out = s[2] ? s + 2 : (i + 1 < a->argc ? a->argv[i + 1] : NULL);
		*value_role = CC_OUT;
		return CC_OUT;
	}
	if (!strcmp(s, "-pg"))
		return CC_PG;
	if (is_link_only(s)) {
		*value_role = CC_LINK;
		return CC_LINK;
	}
	return CC_OPT;
}

static void classify(struct cc_args *a)
{
	for (int i = 0; i < a->argc; i++) {
		const char *s = a->argv[i];
		enum cc_role value_role;

		if (s[0] == '@') {		/* one we could not read: gcc's error */
			a->untouched = 1;
			a->role[i] = CC_OPT;
		} else if (s[0] != '-' || !s[1]) {
			a->role[i] = cc_is_source(s) ? CC_SRC : CC_INPUT;
			a->nsrc += a->role[i] == CC_SRC;
			a->ninputs++;
		} else {
			a->role[i] = option_role(a, i, &value_role);
			if (IN(with_value, s) && i + 1 < a->argc)
				a->role[++i] = value_role;
		}
	}
	/* With -x, files are not what their names say; a compile with -o
	 * still makes one object whose name we know. */
	if (!a->ninputs || a->untouched || (a->lang && !(a->compile_only && a->out)))
		a->mode = CC_UNTOUCHED;
	else if (a->compile_only)
		a->mode = CC_COMPILE;
	else
		a->mode = a->nsrc ? CC_COMPILE_LINK : CC_LINK_ONLY;
}

int cc_args_parse(struct cc_args *a, int argc, char **argv)
{
	memset(a, 0, sizeof(*a));
	a->lto = -1;
	a->argc = argc;
	a->argv = argv;
	a->role = calloc(argc ? argc : 1, sizeof(*a->role));
	if (!a->role)
		return -1;
	classify(a);
	return 0;
}

int cc_has_arg(const struct cc_args *a, const char *opt)
{
	for (int i = 0; i < a->argc; i++)
		if (!strcmp(a->argv[i], opt))
			return 1;
	return 0;
}

void cc_args_free(struct cc_args *a)
{
	free(a->role);
	a->role = NULL;
}
