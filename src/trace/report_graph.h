/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The function_graph view's state and its columns, shared by
 * report_graph.c (the calls) and report_graph_kev.c (the kernel's events
 * among them, record -e).
 */
#ifndef FNTRACE_REPORT_GRAPH_H
#define FNTRACE_REPORT_GRAPH_H

#include "report_int.h"

#include <stdio.h>

#define GRAPH_INDENT		2
struct frame {
	uint32_t func;		/* 0: a frame entered while events were lost */
	int timed;		/* its entry time is known */
	uint64_t start;
};

/* A system call open across other lines (record -e). */
struct open_syscall {
	const struct kev_record *entry;	/* NULL: none */
};

struct graph_thread {
	struct frame *stack;
	unsigned depth;
	size_t cap;
	const struct tr_kev_ref *kev;	/* its kernel events, in time order */
	size_t nr_kev, next_kev;	/* how many; the next to print */
	struct open_syscall sys;
};

/* The thread that printed last on a CPU: when another one prints there,
 * the kernel draws a context-switch banner (verif_pid). */
struct cpu_owner {
	uint32_t cpu;
	unsigned thread;
	const char *comm;
};

struct graph {
	struct report *r;
	FILE *out;
	struct report_merge merge;
	struct graph_thread *threads;	/* parallel to r->threads */
	struct cpu_owner *owners;
	unsigned nr_owners;
	size_t cap_owners;
	int cpu_width;
	/* Threads with kernel events and no call in the trace (-F left
	 * them none), after the report's own: index nr_threads + i. */
	struct tr_thread *kev_only;
	struct graph_thread *kev_only_gt;
	unsigned nr_kev_only;
	uint64_t kev_next;		/* the earliest kernel event not yet
					 * printed, of any thread */
};

/* The columns before a line's text. */
void graph_print_cpu(const struct graph *g, uint32_t cpu);
void graph_print_proc(FILE *out, const char *comm, uint32_t tid);
void graph_print_abstime(FILE *out, uint64_t ns);
void graph_print_duration(const struct graph *g, uint64_t start, uint64_t end);
void graph_print_no_duration(const struct graph *g);
void graph_print_indent(FILE *out, unsigned depth);

/* report_graph_kev.c: each thread's kernel events found; -1 out of
 * memory. */
int graph_kev_init(struct graph *g);
void graph_kev_free(struct graph *g);
/* Has thread ti a kernel event to print before time t (ns)? */
int graph_kev_before(const struct graph *g, unsigned ti, uint64_t t);
/* Every thread's kernel events before time t printed in time order,
 * each at its thread's depth; cur is the thread whose event at t comes
 * next (~0u: none). */
void graph_kev_flush(struct graph *g, unsigned cur, uint64_t t);
/* The report header's line on the kernel events, if any were recorded. */
void graph_kev_header(const struct report *r);

#endif
