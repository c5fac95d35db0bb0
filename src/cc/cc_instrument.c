// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace cc: the instrumentation that suits the compiler, its target
 * ($CC -dumpmachine) and the command's options.
 *
 * The -pg form is the default: the calls to mcount become nops and get
 * their table from recordmcount.  What goes with it is the target
 * architecture's (its arch_desc, src/arch/<arch>/decode.c): x86_64 adds
 * -mfentry, which puts the call at the entry, before the frame set-up,
 * so a nopped site costs one nop and nothing else; riscv64 adds
 * -ffunction-sections.
 *
 * A patchable entry (nops and the compiler's own table) is used where -pg
 * gives no call the runtime can patch:
 *  - clang's LTO: its code is generated inside the linker, where no
 *    recordmcount can run, while the patchable-entry attribute each
 *    function carries in the bitcode gives the linked image its nops and
 *    its __patchable_function_entries;
 *  - gcc's -mcmodel=large on x86_64, whose __fentry__ call goes through
 *    a register loaded from a 64-bit address: no 5-byte call.
 */
#include "cc.h"
#include "../cli/cli.h"
#include "../arch/arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gcc's return sites (x86_64): a 5-byte nop before every return, listed
 * in __return_loc, which the runtime patches instead of taking the return
 * address (src/core/returns.c). */
#define RETURN_SITES_FLAG	"-minstrument-return=nop5"
#define RECORD_RETURN_FLAG	"-mrecord-return"
/* clang's: XRay's sleds at returns and tail calls alone, in every
 * function however small, which recordmcount makes return sites
 * (src/recordmcount/xray.c).  Compiles only: a link given them would
 * pull in XRay's runtime. */
static const char *const xray_exits[] = {
	"-fxray-instrument", "-fxray-instrumentation-bundle=function-exit",
	"-fxray-instruction-threshold=1",
};
#define NR_XRAY_EXITS (sizeof(xray_exits) / sizeof(xray_exits[0]))

/* What each target wants is its architecture's (struct arch_desc's cc_
 * fields); a target fntrace has no runtime for wants nothing. */
static const struct arch_desc unknown = { .name = "this target" };

/* The first line "$CC -dumpmachine" prints, the target triple, into buf:
 * 0, or -1 after one line. */
static int target_triple(const struct cmd *cc, char *buf, size_t len)
{
	struct cmd c;
	char *text = NULL;
	int status = -1;

	if (cc_start_cmd(&c, cc, NULL) == 0 && cmd_push(&c, "-dumpmachine") == 0)
		status = cc_capture(&c, 1, &text);
	free(c.v);
	if (status == 0 && text[strcspn(text, "\n")] == '\n' && strcspn(text, "\n") < len) {
		snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
		free(text);
		return 0;
	}
	if (status >= 0)	/* else not started: said */
		cli_error("cc: '%s -dumpmachine' does not say the target", cc->v[0]);
	free(text);
	return -1;
}

/* The arch of the triple, as -m32 and -mx32 change it. */
static const struct arch_desc *target_of(const char *triple, const struct cc_args *a)
{
	const struct arch_desc *t;

	if (!strncmp(triple, "x86_64", 6) && cc_has_arg(a, "-mx32"))
		return &unknown;
	if (!strncmp(triple, "x86_64", 6) && cc_has_arg(a, "-m32"))
		triple = "i386";
	if (triple[0] == 'i' && strchr("3456", triple[1]) && !strncmp(triple + 2, "86", 2))
		triple = "i386";
	t = arch_of_triple(triple);
	return t ? t : &unknown;
}

/* Is the compiler clang?  (It defines __clang__.) */
static int cc_is_clang(const struct cmd *cc)
{
	struct cmd c;
	char *text = NULL;
	int clang = 0;

	if (cc_start_cmd(&c, cc, NULL) == 0 && cmd_push(&c, "-dM") == 0 &&
	    cmd_push(&c, "-E") == 0 && cmd_push(&c, "-x") == 0 && cmd_push(&c, "c") == 0 &&
	    cmd_push(&c, "/dev/null") == 0 && cc_capture(&c, 1, &text) == 0)
		clang = strstr(text, "#define __clang__ ") != NULL;
	free(text);
	free(c.v);
	return clang;
}

/* Does the compiler take gcc's return sites?  gcc (9 and later) does;
 * clang refuses the flags, even beside -dumpmachine. */
static int takes_return_sites(const struct cmd *cc)
{
	struct cmd c;
	int ok = cc_start_cmd(&c, cc, NULL) == 0 && cmd_push(&c, "-dumpmachine") == 0 &&
		 cmd_push(&c, RETURN_SITES_FLAG) == 0 && cmd_push(&c, RECORD_RETURN_FLAG) == 0 &&
		 cc_succeeds(&c);

	free(c.v);
	return ok;
}

/* An empty compile for the target (its ABI options), with flags and
 * the n extra words: 1 if the compiler takes it, 0 if it refuses, -1 if
 * the command could not be made. */
static int empty_compile(const struct cmd *cc, const struct cc_args *a, const struct cmd *flags,
			 const char *const *extra, size_t n)
{
	struct cmd c;
	int ret = cc_start_cmd(&c, cc, flags);

	for (int i = 0; i < a->argc && !ret; i++)
		if (cc_abi_option(a, i))
			ret = cmd_push(&c, a->argv[i]);
	for (size_t i = 0; i < n && !ret; i++)
		ret = cmd_push(&c, extra[i]);
	ret = ret || cmd_push(&c, "-S") || cmd_push(&c, "-x") || cmd_push(&c, "c") ||
	      cmd_push(&c, "/dev/null") || cmd_push(&c, "-o") || cmd_push(&c, "/dev/null");
	ret = ret ? -1 : cc_succeeds(&c);
	free(c.v);
	return ret;
}

/* Does the compiler make XRay's exit sleds for the target?  clang does
 * where XRay is ported (x86_64: not -m32). */
static int takes_xray_exits(const struct cmd *cc, const struct cc_args *a)
{
	return empty_compile(cc, a, NULL, xray_exits, NR_XRAY_EXITS) == 1;
}

static int push_xray_exits(struct cmd *flags)
{
	int ret = 0;

	for (size_t i = 0; i < NR_XRAY_EXITS; i++)
		ret |= cmd_push(flags, xray_exits[i]);
	return ret;
}

/* XRay's exit sleds, for recordmcount to make return sites. */
static int xray_form(struct cc_instr *in)
{
	in->xray = 1;
	return push_xray_exits(&in->flags);
}

/* The compiler's return sites beside -pg, where the target takes them. */
static int return_sites_form(const struct cmd *cc, const struct cc_args *a,
			     const struct arch_desc *t, struct cc_instr *in)
{
	if (t->cc_return_sites != CC_RETURNS_WITH_PG)
		return 0;
	if (takes_return_sites(cc))
		return cmd_push(&in->flags, RETURN_SITES_FLAG) |
		       cmd_push(&in->flags, RECORD_RETURN_FLAG);
	return takes_xray_exits(cc, a) ? xray_form(in) : 0;
}

/*
 * Does the compiler refuse -fomit-frame-pointer beside these flags?  gcc
 * does beside -pg on every target (a check of its driver), clang unless
 * -mfentry is there too.  Asked of an empty compile for the target.
 */
static int refuses_omit_fp(const struct cmd *cc, const struct cc_args *a,
			   const struct cmd *flags)
{
	static const char *const omit[] = { "-fomit-frame-pointer" };

	return empty_compile(cc, a, flags, omit, 1) == 0;
}

/* -pg and what goes with it on the target. */
static int pg_form(const struct cmd *cc, const struct cc_args *a, const struct arch_desc *t,
		   struct cc_instr *in)
{
	int ret = cmd_push(&in->flags, "-pg");

	if (t->cc_pg_extra)
		ret |= cmd_push(&in->flags, t->cc_pg_extra);
	ret |= return_sites_form(cc, a, t, in);
	if (ret || !a->omit_fp || !refuses_omit_fp(cc, a, &in->flags))
		return ret;
	/* With -mfentry nothing needs the frame pointer, and gcc leaves it
	 * out from -O1 on without being asked; elsewhere -pg keeps it. */
	in->drop_omit_fp = t->cc_fentry ? CC_OMIT_FP_MOOT : CC_OMIT_FP_KEPT;
	return 0;
}

static int patchable_form(const struct arch_desc *t, const char *why, struct cc_instr *in)
{
	if (!t->cc_patchable) {
		cli_error("cc: %s cannot be traced on %s (no patchable entries there): "
			  "build without it", why, t->name);
		return -1;
	}
	in->form = CC_FORM_PATCHABLE;
	return cmd_push(&in->flags, t->cc_patchable);
}

/*
 * Patchable entries with XRay's exit sleds (clang), past its driver, which
 * refuses the two together for XRay's own sake: fntrace links no XRay
 * runtime, and asks for no entry sled that could meet the nops.  1 if the
 * compiler makes them for the target, 0 if not, -1 after one line.
 */
static int patchable_with_sleds(const struct cmd *cc, const struct cc_args *a,
				const struct arch_desc *t, struct cc_instr *in)
{
	struct cmd entry = { 0 };
	int ret = cmd_push(&entry, "-Xclang") | cmd_push(&entry, t->cc_patchable);

	if (ret)
		ret = -1;
	else if (empty_compile(cc, a, &entry, xray_exits, NR_XRAY_EXITS) == 1)
		ret = cmd_append(&in->flags, &entry) | push_xray_exits(&in->flags) ? -1 : 1;
	if (ret > 0)
		in->form = CC_FORM_PATCHABLE;
	free(entry.v);
	return ret;
}

/*
 * aarch64: a -pg site's frame is known by the slot in the function's
 * frame record, anywhere in its frame, which a return site after the
 * epilogue cannot find; a patchable entry's lies just below the CFA,
 * where it looks (src/core/returns.c).  A compiler that makes XRay's
 * sleds (clang) gets patchable entries with them, for recordmcount.
 */
static int patchable_returns_form(const struct cmd *cc, const struct cc_args *a,
				  const struct arch_desc *t, struct cc_instr *in)
{
	int ret = patchable_with_sleds(cc, a, t, in);

	in->xray = ret > 0;
	return ret ? (ret < 0 ? -1 : 0) : pg_form(cc, a, t, in);
}

/*
 * clang's LTO compiles write bitcode, and the link generates the code:
 * patchable entries, whose table that code generation writes, with XRay's
 * exit sleds where the target has return sites.  The sleds are made
 * return sites in the image the link makes (in->sleds_at_link, cmd_cc.c),
 * not in the objects, which have none.
 */
static int lto_clang_form(const struct cmd *cc, const struct cc_args *a,
			  const struct arch_desc *t, struct cc_instr *in)
{
	int ret = t->cc_return_sites && t->cc_patchable ? patchable_with_sleds(cc, a, t, in) : 0;

	if (ret == 0)
		return patchable_form(t, "clang's -flto", in);
	in->sleds_at_link = 1;
	return ret < 0 ? -1 : 0;
}

int cc_instrument(const struct cmd *cc, const struct cc_args *a, int lto, struct cc_instr *in)
{
	const struct arch_desc *t;
	char triple[128];
	int large;

	memset(in, 0, sizeof(*in));
	if (target_triple(cc, triple, sizeof(triple)))
		return -1;
	t = target_of(triple, a);
	in->arch = t->name;
	large = t->cc_fentry && a->cmodel && !strcmp(a->cmodel, "large");
	if (lto || large)
		in->clang = cc_is_clang(cc);
	if (lto && in->clang)
		return lto_clang_form(cc, a, t, in);
	if (large && !in->clang)
		return patchable_form(t, "gcc's -mcmodel=large", in);
	if (t->cc_return_sites == CC_RETURNS_WITH_PATCHABLE)
		return patchable_returns_form(cc, a, t, in);
	return pg_form(cc, a, t, in);
}

void cc_instr_free(struct cc_instr *in)
{
	free(in->flags.v);
	memset(in, 0, sizeof(*in));
}

void cc_instr_note(const struct cc_instr *in)
{
	if (in->drop_omit_fp == CC_OMIT_FP_KEPT)
		cli_error("cc: note: -fomit-frame-pointer left out: -pg needs the frame "
			  "pointer on %s", in->arch);
}

int cc_keeps_arg(const struct cc_instr *in, const struct cc_args *a, int i)
{
	if (a->role[i] == CC_PG)
		return in->form == CC_FORM_PG;	/* in the flags already */
	return !(in->drop_omit_fp && !strcmp(a->argv[i], "-fomit-frame-pointer"));
}
