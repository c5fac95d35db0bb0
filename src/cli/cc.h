/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fntrace cc: a compiler wrapper that builds programs for tracing
 * (cmd_cc.c), and its reading of a compiler command line (cc_args.c,
 * cc_respfile.c).
 */
#ifndef FNTRACE_CC_H
#define FNTRACE_CC_H

#include <stddef.h>

/* What each argument is, so that each step gets its own. */
enum cc_role {
	CC_OPT,		/* an option (or its value) for every step */
	CC_LINK,	/* a link-only option, or its value */
	CC_PG,		/* -pg: compiles only, never a link */
	CC_OUT,		/* -o and its value */
	CC_SRC,		/* a source file */
	CC_INPUT,	/* another input: an object, an archive, a library */
};

enum cc_mode {
	CC_UNTOUCHED,	/* -E, -S, -M, -MM, no input, ...: run as it is */
	CC_COMPILE,	/* -c: compile with the flags, record the objects */
	CC_COMPILE_LINK,/* sources and a link: one compile each, then the link */
	CC_LINK_ONLY,	/* objects only: link without -pg */
};

struct cc_args {
	int argc;
	char **argv;		/* the compiler's arguments, not ours */
	unsigned char *role;	/* enum cc_role, per argument */
	enum cc_mode mode;
	const char *out;	/* -o's value, or NULL */
	int nsrc, ninputs;
	int compile_only;	/* -c */
	int lang;		/* -x */
	int untouched;		/* an option after which no object is made */
};

/* A growing vector of arguments, always ended by NULL. */
struct cmd {
	char **v;
	int n;
	size_t cap;
};

int cmd_push(struct cmd *c, const char *s);	/* cmd_cc.c */
/* Run the command and wait: its exit status (CLI_EXIT_FAILED after one
 * line if it could not be started). */
int cc_run(const struct cmd *c);

/* What the link makes (cc_startup.c). */
enum cc_link_kind {
	CC_LINKS_PROGRAM,
	CC_LINKS_LIBRARY,	/* -shared */
	CC_LINKS_OBJECT,	/* -r */
};
enum cc_link_kind cc_link_kind(const struct cc_args *a);
/* The object that starts fntrace's runtime, or shows it the library,
 * before the link's constructors, compiled into dir for its target: its
 * path (malloc'd), or NULL. */
char *cc_startup_object(const struct cmd *cc, const struct cc_args *a, const char *dir);

/* Does the link make a static program (-static, -static-pie)? */
int cc_links_static(const struct cc_args *a);
/* The runtime linked into a static program (cc_static.c): the options
 * and libfntrace.a for the architecture startup (the start-up object)
 * is for, pushed on c; the archive's path (malloc'd, in c until the
 * command has run), or NULL after one line if there is none. */
char *cc_static_runtime(struct cmd *c, const char *startup);

int cc_args_parse(struct cc_args *a, int argc, char **argv);
/* Is opt one of the arguments, as it is? */
int cc_has_arg(const struct cc_args *a, const char *opt);
/* argv with every readable @FILE replaced by its words: a new vector of
 * new strings, ended by NULL, for cc_free_words(). */
int cc_expand_response_files(int argc, char **argv, int *out_argc, char ***out_argv);
void cc_free_words(char **v);
void cc_args_free(struct cc_args *a);

#endif
