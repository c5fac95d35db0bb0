// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace cc: LTO links.  With -flto the code is generated at the link,
 * from objects that hold none, so the link must instrument it.
 *
 * clang keeps the instrumentation of each function in the bitcode, and
 * its link needs nothing of ours (cc_instrument.c gives its LTO compiles
 * patchable entries, whose table the linker's code generation writes),
 * but on riscv64 the ABI clang 14 forgets there.
 *
 * gcc takes its instrumentation from the link's own options, and its code
 * generation (lto-wrapper's ltrans) runs the driver and the assembler once
 * per partition.  So the link gets the compiles' flags, -pg among them,
 * and -B DIR/, where DIR holds:
 *  - "as": the real assembler, then "fntrace recordmcount --nop" on the
 *    object, as on any object fntrace cc compiles: the image gets the
 *    same nops and tables as without LTO;
 *  - "gcrt1.o" and "grcrt1.o": links to the start file the link would
 *    take without -pg (Scrt1.o, crt1.o, rcrt1.o: what "cc -###" names),
 *    since -pg on a link asks for gprof's start-up code by those names,
 *    and -B's directory is searched first.
 */
#include "cc.h"
#include "../cli/cli.h"
#include "../common/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const start_files[] = { "crt1.o", "Scrt1.o", "rcrt1.o" };
static const char *const profiling_start_files[] = { "gcrt1.o", "grcrt1.o" };

int cc_lto_link(const struct cc_args *a, unsigned input_kinds)
{
	return a->lto > 0 || (a->lto < 0 && (input_kinds & CC_OBJ_LTO));
}

/* The compiler with the options that choose its target and tools. */
static int target_cmd(struct cmd *c, const struct cmd *cc, const struct cc_args *a)
{
	int ret = cc_start_cmd(c, cc, NULL);

	for (int i = 0; i < a->argc && !ret; i++)
		if (cc_abi_option(a, i))
			ret = cmd_push(c, a->argv[i]);
	return ret;
}

/* The assembler the compiler runs, as a shell word (malloc'd), or NULL
 * after one line. */
static char *real_assembler(const struct cmd *cc, const struct cc_args *a)
{
	struct cmd c;
	char *text = NULL, *word = NULL;
	int status = -1;

	if (target_cmd(&c, cc, a) == 0 && cmd_push(&c, "-print-prog-name=as") == 0)
		status = cc_capture(&c, 1, &text);
	free(c.v);
	if (status == 0 && text[0] && text[0] != '\n') {
		text[strcspn(text, "\n")] = '\0';
		word = cli_command_line(&text, 1);
	} else if (status >= 0) {
		cli_error("cc: '%s -print-prog-name=as' does not name the assembler", cc->v[0]);
	}
	free(text);
	return word;
}

/* This fntrace, as a shell word (malloc'd), or NULL. */
static char *self_word(void)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *argv[1] = { path };

	if (n <= 0)
		return NULL;
	path[n] = '\0';
	return cli_command_line(argv, 1);
}

static int write_assembler(const struct cmd *cc, const struct cc_args *a, const char *dir)
{
	char *as = real_assembler(cc, a), *self = self_word(), *path = NULL, *text = NULL;
	int n = as && self ? asprintf(&text,
		"#!/bin/sh\n"
		"# fntrace cc: the assembler of an LTO link's code generation; each\n"
		"# object it makes is recorded as fntrace cc records its compiles'.\n"
		"%s \"$@\" || exit\n"
		"out=\n"
		"while [ $# -gt 1 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n"
		"[ -z \"$out\" ] || exec %s recordmcount --nop -- \"$out\"\n", as, self) : -1;
	int ret = n < 0 || asprintf(&path, "%s/as", dir) < 0 ||
		  replace_file(path, text, n, 0755);

	if (ret && as && self)
		cli_error("cc: cannot write %s/as: %s", dir, strerror(errno));
	free(as);
	free(self);
	free(path);
	free(text);
	return ret ? -1 : 0;
}

static int is_start_file(const char *word)
{
	const char *base = strrchr(word, '/') ? strrchr(word, '/') + 1 : word;

	for (size_t i = 0; i < sizeof(start_files) / sizeof(start_files[0]); i++)
		if (!strcmp(base, start_files[i]))
			return 1;
	return 0;
}

/* The start file in what "cc -###" printed, malloc'd; NULL if none (a
 * library, -nostartfiles). */
static char *start_file_in(const char *text)
{
	char *word = NULL;

	while (cc_next_word(&text, &word) > 0) {
		if (is_start_file(word))
			return word;
		free(word);
	}
	return NULL;
}

/* The start file the link takes without -pg: malloc'd in *file, NULL if
 * none; -1 after one line. */
static int start_file(const struct cmd *cc, const struct cc_args *a, char **file)
{
	struct cmd c;
	char *text = NULL;
	int ret = cc_start_cmd(&c, cc, NULL), status = -1;

	for (int i = 0; i < a->argc && !ret; i++)
		if (a->role[i] != CC_PG)
			ret = cmd_push(&c, a->argv[i]);
	if (!ret && cmd_push(&c, "-###") == 0)
		status = cc_capture(&c, 2, &text);
	free(c.v);
	*file = status == 0 ? start_file_in(text) : NULL;
	if (status > 0)
		cli_error("cc: '%s -###' refuses the link", cc->v[0]);
	free(text);
	return status ? -1 : 0;
}

/* gcrt1.o and grcrt1.o in dir, both the start file the link takes. */
static int link_start_files(const struct cmd *cc, const struct cc_args *a, const char *dir)
{
	char *file, *link = NULL;
	int ret = start_file(cc, a, &file);

	for (size_t i = 0; file && !ret && i < 2; i++) {
		ret = asprintf(&link, "%s/%s", dir, profiling_start_files[i]) < 0 ||
		      symlink(file, link);
		if (ret)
			cli_error("cc: cannot link %s to %s: %s", link ? link : "a start file",
				  file, strerror(errno));
		free(link);
		link = NULL;
	}
	free(file);
	return ret ? -1 : 0;
}

/*
 * clang 14's code generation at an LTO link for riscv64 takes the
 * soft-float ABI whatever its compiles were given (lp64d by default),
 * and the link fails ("can't link soft-float modules with double-float
 * modules") with or without fntrace.  The ABI of the compiles, -mabi= or
 * the default, goes to the linker's LLVM plugin.
 */
static int clang_lto_abi(const struct cc_instr *in, const struct cc_args *a, struct cmd *link,
			 char **owned)
{
	const char *abi = "lp64d";

	if (strcmp(in->arch, "riscv64"))
		return 0;
	for (int i = 0; i < a->argc; i++)
		if (a->role[i] == CC_OPT && !strncmp(a->argv[i], "-mabi=", 6))
			abi = a->argv[i] + 6;
	if (asprintf(owned, "-Wl,-plugin-opt=-target-abi=%s", abi) < 0)
		*owned = NULL;
	if (!*owned || cmd_push(link, *owned)) {
		cli_error("cc: out of memory");
		return -1;
	}
	return 0;
}

int cc_lto_prepare(const struct cmd *cc, const struct cc_instr *in, const struct cc_args *a,
		   const char *dir, struct cmd *link, char **owned)
{
	*owned = NULL;
	if (in->clang)	/* the bitcode has its instrumentation */
		return clang_lto_abi(in, a, link, owned);
	if (in->form == CC_FORM_PG &&
	    (write_assembler(cc, a, dir) ||
	     (cc_link_kind(a) == CC_LINKS_PROGRAM && link_start_files(cc, a, dir))))
		return -1;
	if (in->form == CC_FORM_PG && asprintf(owned, "-B%s/", dir) < 0)
		*owned = NULL;
	if ((in->form == CC_FORM_PG && (!*owned || cmd_push(link, *owned))) ||
	    cmd_append(link, &in->flags)) {
		cli_error("cc: out of memory");
		return -1;
	}
	return 0;
}
