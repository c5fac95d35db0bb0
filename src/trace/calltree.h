/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calls of a trace as a tree of distinct stacks, what a flame graph
 * draws and folded stacks list: one node per path of function names from
 * an outermost call down, with its calls, total and self time.
 *
 *   main() {                         all             total 10
 *     a() { c(); }                   `- main         total 10, self 2
 *     a() { c(); }          ->          |- a         calls 2, total 6
 *     b();                              |  `- c      calls 2, total 4
 *   }                                   `- b         calls 1, total 2
 *
 * One tree for every thread read, under a root that stands for them all:
 * stacks are keyed by names, not function ids (each process has ids of
 * its own; names are demangled), so the same path in two threads or two
 * processes is one node.  A profile asks where the time goes; threads
 * that do the same work add up, and a thread's own start function (its
 * outermost frame) keeps its stacks apart where they differ.
 *
 * Memory grows with the number of distinct stacks and of distinct names,
 * never with the number of calls.
 *
 * The kernel's events (record -e) add frames below the call open when
 * they happened: "[syscall read]" for a system call, "[off CPU: S]" for
 * a time off the CPU (below its system call if it was in one); they
 * split their caller's self time and add none.  Those outside every call
 * (the start-up's) are no call's time, and left out.
 *
 * A whole call (tracing_thresh) comes after the calls it made: it joins
 * the tree once its caller is known (whole_calls.h), the calls below it
 * with it; one whose caller had not ended with the trace goes below an
 * "[unfinished]" frame.
 */
#ifndef FNTRACE_CALLTREE_H
#define FNTRACE_CALLTREE_H

#include "trace_reader.h"
#include "whole_calls.h"

#include <stddef.h>
#include <stdint.h>

#define CALLTREE_ROOT	0u	/* the root's index, never anyone's child */
#define CALLTREE_NONE	0u	/* no child, no sibling */

/* Names of frames no function name is known for. */
#define CALLTREE_LOST_NAME	"[lost]"	/* entered while events were lost */
#define CALLTREE_UNFINISHED_NAME "[unfinished]"	/* the caller of whole calls
						 * (tracing_thresh) that had
						 * not ended with the trace */

struct calltree_node {
	uint32_t name;			/* index into names; the root has none */
	uint32_t parent;
	uint32_t first_child;		/* children in name order once built */
	uint32_t next_sibling;
	uint32_t depth;			/* the root 0, outermost calls 1 */
	uint64_t calls;
	uint64_t total;			/* ns, this stack's calls end to end */
	uint64_t self;			/* ns, total less the calls it made */
};

/* A call still open on the thread being read. */
struct calltree_open {
	uint32_t node;
	uint64_t children;		/* ns spent in the calls it made */
};

struct calltree {
	struct calltree_node *nodes;	/* [CALLTREE_ROOT] is the root */
	uint32_t nr_nodes;
	size_t cap_nodes;
	uint32_t max_depth;
	char **names;
	uint32_t nr_names;
	size_t cap_names;
	uint32_t *name_slots;		/* name hash: name index + 1, 0 free */
	uint32_t nr_name_slots;
	uint32_t *child_slots;		/* (parent, name) hash: node + 1 */
	uint32_t nr_child_slots;
	uint32_t **name_of_func;	/* per process, per function id: name + 1 */
	unsigned nr_procs;
	struct calltree_open *open;	/* the thread's stack as it is read */
	unsigned nr_open;
	size_t cap_open;
	struct whole_calls whole;	/* whole calls waiting for their callers */
	unsigned whole_level;		/* of the whole call being added */
};

/* Reads the calls of threads (of td) into t: 0, or -1 after one line to
 * the printer (a trace of the function tracer, which has no durations; out of
 * memory).  Children are in name order, as flamegraph.pl draws them. */
int calltree_build(struct calltree *t, struct trace_data *td,
		   const struct tr_thread *const *threads, unsigned nr_threads);
void calltree_free(struct calltree *t);

static inline const char *calltree_name(const struct calltree *t, uint32_t node)
{
	return t->names[t->nodes[node].name];
}

/* Preorder: the node after n, its first child if it has one; CALLTREE_NONE
 * at the end.  calltree_after skips n's descendants. */
uint32_t calltree_next(const struct calltree *t, uint32_t n);

#endif
