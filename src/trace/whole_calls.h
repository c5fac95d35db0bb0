/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracing_thresh's whole calls (TR_CALL) come at their exits, after the
 * calls they made, and a reader that sums time up a stack (a profile's
 * self time, a flame graph's stacks) cannot know a call's caller until
 * that caller ends.  Their depths say who called whom: the calls at
 * depth d + 1 since the last call at depth d are its callees.
 *
 *   exits, with depths:  c 2, b 1, d 1, a 0     ->   a { b { c }, d }
 *
 * So a call waits here with its callees until its caller comes, or
 * until its caller is an open frame the reader knows (its depth is at
 * most the anchor: the reader's open frames, whose entries it saw); then
 * the reader visits it and the calls below it, each caller before its
 * callees, entered and left as a walk of a tree.  Waiting calls of one
 * caller are added up by the reader's key (a function name, a profile
 * row), so memory grows with the distinct stacks that wait, never with
 * the number of calls.  Calls whose caller never came (it was still
 * running when the trace ended, or was not recorded) are visited at the
 * end, below stand-ins keyed WHOLE_UNKNOWN, one per missing level.
 */
#ifndef FNTRACE_WHOLE_CALLS_H
#define FNTRACE_WHOLE_CALLS_H

#include <stddef.h>
#include <stdint.h>

#define WHOLE_UNKNOWN	UINT32_MAX	/* a caller no event named */

/* Calls of one key at one place of a stack, added up. */
struct whole_node {
	uint32_t key;
	uint32_t parent, first_child, next_sibling;	/* 0: none */
	uint64_t calls;
	uint64_t total;			/* ns, the calls end to end */
	uint64_t self;			/* ns, less the calls they made */
	unsigned __int128 total_sq;	/* each call's ns squared, summed */
};

/* What a reader does with the calls whose callers are known. */
struct whole_visitor {
	int (*enter)(void *arg, const struct whole_node *n);	/* -1: stop */
	void (*leave)(void *arg, const struct whole_node *n);
	void *arg;
};

/* Two nodes whose children are to be added up: from's go below to. */
struct whole_merge {
	uint32_t to, from;
};

struct whole_calls {
	struct whole_node *nodes;	/* [0] unused: index 0 means none */
	uint32_t nr_nodes;
	size_t cap_nodes;
	uint32_t free_nodes;		/* a list through next_sibling */
	uint32_t *waiting;		/* per depth: a node whose children wait
					 * for their caller; 0: none yet */
	unsigned nr_waiting;
	size_t cap_waiting;
	unsigned nr_deep;		/* the levels below it wait for nothing:
					 * a scan of the waiting starts there */
	struct whole_merge *merges;	/* a merge's work still to do */
	size_t nr_merges, cap_merges;
};

void whole_calls_init(struct whole_calls *w);
void whole_calls_free(struct whole_calls *w);
/* A whole call of key at depth that took ns.  Visited at once, with its
 * callees, if depth <= anchor; else it waits.  0, or -1 if out of memory
 * or a visitor said stop. */
int whole_calls_add(struct whole_calls *w, uint32_t key, unsigned depth, uint64_t took,
		    unsigned anchor, const struct whole_visitor *v);
/* The calls still waiting, visited as callees of the anchor's frame
 * below stand-ins for their callers; the thread's calls are done. */
int whole_calls_flush(struct whole_calls *w, unsigned anchor, const struct whole_visitor *v);

#endif
