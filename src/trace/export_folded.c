// SPDX-License-Identifier: GPL-2.0
/*
 * --format folded: the distinct stacks of the trace (calltree.h), one line
 * each, outermost frame first, with the stack's self time in nanoseconds:
 *
 *   main;parse;read_token 1834
 *
 * as Brendan Gregg's stackcollapse scripts write them and flamegraph.pl,
 * inferno and speedscope read them: frames split at ';', the weight after
 * the line's last space.  A stack whose self time is 0 would draw nothing
 * and is left out; its callers' and callees' lines still say it (the
 * flame graph is rebuilt from the prefixes).  Threads and processes are
 * merged, as calltree.h says.
 *
 * Names are made safe for that syntax: ';' would cut a frame in two and
 * becomes ':'; a control character (a newline would cut the line) becomes
 * '?'.  Spaces stay, since readers take the weight after the last one, and
 * C++ names have them ("operator new", "(anonymous namespace)::f").
 */
#include "export.h"
#include "calltree.h"
#include "../common/array.h"
#include "../common/print.h"

#include <inttypes.h>
#include <stdlib.h>

static void put_frame_name(FILE *f, const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p == ';')
			putc(':', f);
		else if (*p < 0x20 || *p == 0x7f)
			putc('?', f);
		else
			putc(*p, f);
	}
}

/* path[0 .. depth - 1]: the stack from its outermost frame to node. */
static void put_stack(FILE *f, const struct calltree *t, const uint32_t *path,
		      uint32_t depth)
{
	for (uint32_t i = 0; i < depth; i++) {
		if (i)
			putc(';', f);
		put_frame_name(f, calltree_name(t, path[i]));
	}
	fprintf(f, " %" PRIu64 "\n", t->nodes[path[depth - 1]].self);
}

/* Preorder, so that a node's ancestors are already in path when it comes. */
static int write_stacks(FILE *f, const struct calltree *t)
{
	uint32_t *path = NULL;
	size_t cap = 0;

	for (uint32_t n = calltree_next(t, CALLTREE_ROOT); n; n = calltree_next(t, n)) {
		uint32_t depth = t->nodes[n].depth;

		if (grow_array((void **)&path, &cap, depth, sizeof(*path))) {
			free(path);
			pr_error("out of memory");
			return -1;
		}
		path[depth - 1] = n;
		if (t->nodes[n].self)
			put_stack(f, t, path, depth);
	}
	free(path);
	return 0;
}

int export_folded(struct export *ex)
{
	struct calltree tree;
	int err;

	if (calltree_build(&tree, &ex->td, ex->threads, ex->nr_threads))
		return -1;
	err = write_stacks(ex->out.f, &tree);
	calltree_free(&tree);
	return err;
}
