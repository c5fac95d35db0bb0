/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracers: what ftrace_call and ftrace_graph_call lead to.
 */
#ifndef FNTRACE_TRACERS_H
#define FNTRACE_TRACERS_H

#include <stdint.h>

/* function: one event per call, with the caller. */
void function_trace_call(uintptr_t self_ret, uintptr_t parent_ip, uintptr_t *retp);

/* The graph hooks: entry and exit, through the shadow stack.  They serve
 * the function_graph tracer (events) and the profiler (times).  regs: the
 * argument registers ftrace_caller saved (arch_arg_regs). */
void prepare_ftrace_return(uintptr_t self_ret, uintptr_t *retp, const uintptr_t *regs);
uintptr_t ftrace_return_to_handler(uintptr_t retval, uintptr_t *slot);
/* The exit hook of a return site (returns.c). */
void ftrace_return_site(uintptr_t retval, uintptr_t *slot, int tail);

/* The shadow stack against the program's own unwinding (unwind.c). */
struct ft_thread;
void graph_unwind_below(struct ft_thread *t, uintptr_t sp);
/* The handler the signal context ran is gone: its frames are closed. */
void graph_close_signal(struct ft_thread *t);
void graph_unhijack(struct ft_thread *t);
void graph_rehijack(struct ft_thread *t);
/* ret, or if it is return_to_handler in the newest frame's slot, the
 * real return address it stands for. */
uintptr_t graph_newest_return(uintptr_t ret);
void graph_suspend(struct ft_thread *t);
void graph_close_all(struct ft_thread *t);
/* The calls the graph could not follow (the shadow stack full, graph
 * tracing suspended) that the trace does not say yet, said: the thread
 * ends, execs, or its process exits. */
void graph_say_missed(struct ft_thread *t);
/* In a forked child: the counts it copied are its parent's. */
void graph_forget_missed(struct ft_thread *t);
/* Frames copied from another thread's stack, which never return here:
 * dropped without a word (a clone() child's copy of its creator). */
void graph_forget_all(struct ft_thread *t);
/* The real return address of t's frame whose return slot is slot, or 0. */
uintptr_t graph_real_return(const struct ft_thread *t, uintptr_t *slot);
/* Can the graph hooks follow this process's unwinding (unwind.c)? */
int ft_graph_safe_here(void);

/* What the graph hooks do: owned by tracer_graph.c, which reads it on
 * every call; written only by tracing.c, where a user's settings change. */
struct ft_graph_config {
	int trace;		/* function_graph is the current tracer */
	int profile;		/* the profiler times calls */
	unsigned max_depth;	/* max_graph_depth; 0: no limit */
	int retval;		/* funcgraph-retval */
	int filters;		/* set_graph_function/notrace are not empty */
	int functions;		/* set_graph_function is not empty */
	int args;		/* set_ftrace_args is not empty */
	int probes;		/* a function has a trigger: ftrace_call's
				 * callback must run before the graph's */
	uint64_t thresh;	/* tracing_thresh in clock ticks; 0: off.
				 * Calls are written whole at their exit,
				 * and only those that lasted this long */
};

extern struct ft_graph_config ft_graph;

#endif
