// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace cc -static: a static program has no loader to preload the
 * runtime into it, so the link puts it in.  libfntrace.a (one object,
 * for the target's architecture: the one the start-up object was
 * compiled for) comes after every input, and the linker sends the
 * program's calls to each function the runtime wraps to its __wrap_
 * stub instead (--wrap, src/core/link_static.c): the list is the
 * runtime's own (src/core/wrapped.h).  The start-up object's
 * .preinit_array entry then finds fntrace_preinit, which -u makes the
 * link take from the archive.
 */
#include "cc.h"
#include "../cli/cli.h"
#include "../target/target.h"

#include <stdio.h>
#include <stdlib.h>

/* Every wrapped function but those wrapped only when preloaded. */
static const char *const wrap_options[] = {
#define FT_WRAP(name) "-Wl,--wrap=" #name,
#define FT_WRAP_PRELOADED(name)
#include "../core/wrapped.h"
};

int cc_links_static(const struct cc_args *a)
{
	return cc_link_kind(a) == CC_LINKS_PROGRAM &&
	       (cc_has_arg(a, "-static") || cc_has_arg(a, "-static-pie"));
}

char *cc_static_runtime(struct cmd *c, const char *startup)
{
	struct cli_target t;
	char *lib = NULL;
	int ret = 0;

	if (cli_target_of(startup, &t) || !(lib = cli_find_static_runtime(&t)))
		return NULL;
	for (size_t i = 0; i < sizeof(wrap_options) / sizeof(wrap_options[0]) && !ret; i++)
		ret = cmd_push(c, wrap_options[i]);
	ret = ret || cmd_push(c, "-Wl,--undefined=fntrace_preinit") || cmd_push(c, lib);
	if (!ret)
		return lib;
	cli_error("cc: out of memory");
	free(lib);
	return NULL;
}
