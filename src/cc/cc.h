/* SPDX-License-Identifier: GPL-2.0 */
/*
 * src/cc/: fntrace cc, a compiler wrapper that builds programs for tracing
 * (its command: src/cli/cmd_cc.c): its reading of a compiler command line (cc_args.c,
 * cc_respfile.c), the instrumentation it chooses (cc_instrument.c), the
 * commands it runs (cc_exec.c), its LTO links (cc_lto.c), the objects
 * and images it looks at (cc_objects.c) and the start-up object it links
 * (cc_startup.c).
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
	int lto;		/* the last of -flto[=...] (1) and -fno-lto (0); or -1 */
	int omit_fp;		/* ... of -f[no-]omit-frame-pointer, -fomit-... */
	const char *cmodel;	/* the last -mcmodel='s value, or NULL */
};

/* A growing vector of arguments, always ended by NULL. */
struct cmd {
	char **v;
	int n;
	size_t cap;
};

/* Running commands (cc_exec.c). */
int cmd_push(struct cmd *c, const char *s);
int cmd_append(struct cmd *c, const struct cmd *more);
/* A new command: the compiler's words, then the flags if any. */
int cc_start_cmd(struct cmd *c, const struct cmd *cc, const struct cmd *flags);
/* Run the command and wait: its exit status (CLI_EXIT_FAILED after one
 * line if it could not be started). */
int cc_run(const struct cmd *c);
/* Run it with its output thrown away: did it succeed? */
int cc_succeeds(const struct cmd *c);
/* Run it and keep what it writes to fd (1 or 2), NUL-ended, malloc'd in
 * *text: its exit status, or -1 after one line. */
int cc_capture(const struct cmd *c, int fd, char **text);

/* How the compiles are instrumented (cc_instrument.c). */
enum cc_form {
	CC_FORM_PG,		/* -pg calls, recorded and nopped by recordmcount */
	CC_FORM_PATCHABLE,	/* patchable entries: the compiler's own table */
};

/* -fomit-frame-pointer, refused beside -pg, is left out: */
enum cc_omit_fp {
	CC_OMIT_FP_GIVEN,	/* no: not refused, or not asked */
	CC_OMIT_FP_MOOT,	/* yes, and the code is the same (x86_64 -mfentry) */
	CC_OMIT_FP_KEPT,	/* yes, and -pg keeps the frame pointer */
};

struct cc_instr {
	enum cc_form form;
	struct cmd flags;	/* added to every compile */
	const char *arch;	/* the target's, as the runtime names it */
	int clang;		/* the compiler is clang (asked only when it matters) */
	enum cc_omit_fp drop_omit_fp;
	int xray;		/* XRay's sleds for recordmcount to make return sites */
	int sleds_at_link;	/* the same, made in the LTO link's image */
};

/* Does each object a compile makes go through recordmcount --nop?  -pg's
 * do, and so do those with XRay's sleds. */
static inline int cc_records(const struct cc_instr *in)
{
	return in->form == CC_FORM_PG || in->xray;
}

/* The instrumentation for the compiler's target and the command's
 * options, lto if code is generated at the link: 0, or -1 after one line
 * (a build that could not be traced). */
int cc_instrument(const struct cmd *cc, const struct cc_args *a, int lto, struct cc_instr *in);
void cc_instr_free(struct cc_instr *in);
/* What a compile should tell about it, in a line, if anything. */
void cc_instr_note(const struct cc_instr *in);
/* Does argument i go on to the compiler, with this instrumentation? */
int cc_keeps_arg(const struct cc_instr *in, const struct cc_args *a, int i);

/* What the inputs of a link hold, as bits (cc_objects.c). */
enum cc_object_kind {
	CC_OBJ_TABLE = 1,	/* an object with a table of call sites */
	CC_OBJ_LTO = 2,		/* code generated at the link: gcc's or LLVM's */
};
/* The kinds the link's inputs hold, in the arguments (objects and
 * archives) and in objs[0..nobjs). */
unsigned cc_input_kinds(const struct cc_args *a, char **objs, int nobjs);
/* Does the linked image have a table of call sites? */
int cc_image_has_table(const char *path);
/* The call sites of a linked image that no symbol names (sites_unnamed):
 * the runtime would leave them all alone. */
unsigned cc_image_unnamed_sites(const char *path);

/* LTO links (cc_lto.c).  Will the link generate code from LTO objects? */
int cc_lto_link(const struct cc_args *a, unsigned input_kinds);
/* Make the LTO link's code get the compiles' instrumentation and its
 * records: tools made in dir, options pushed on link, the strings they
 * need in *owned (to free).  0, or -1 after one line. */
int cc_lto_prepare(const struct cmd *cc, const struct cc_instr *in, const struct cc_args *a,
		   const char *dir, struct cmd *link, char **owned);

/* What the link makes (cc_startup.c). */
enum cc_link_kind {
	CC_LINKS_PROGRAM,
	CC_LINKS_LIBRARY,	/* -shared */
	CC_LINKS_OBJECT,	/* -r */
};
enum cc_link_kind cc_link_kind(const struct cc_args *a);
/* The options that choose the target and its ABI, as argument i may be
 * one (-m32, --target=..., -fPIC...). */
int cc_abi_option(const struct cc_args *a, int i);
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
/* The next word of the text at *p, as gcc reads a @FILE's (and prints
 * -###'s), in a new string: 1, 0 at the end, -1 out of memory. */
int cc_next_word(const char **p, char **word);
void cc_free_words(char **v);
void cc_args_free(struct cc_args *a);

#endif
