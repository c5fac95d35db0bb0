/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function triggers, the commands of set_ftrace_filter (their syntax:
 * common/trigger.h), in the runtime.  As the kernel's probes, a trigger is
 * a set of functions, those its FUNC matches when it is written, each
 * with the command and a count of its own; an ops of its own
 * (FTRACE_OPS_FL_PROBE) keeps their sites on, and the function filter is
 * not changed: a function the tracer's filter leaves out still fires its
 * trigger, and is still not traced.  A library loaded later gets none, as
 * a module loaded after a probe gets none of it.
 *
 * Everything but the hit path (trigger_hits.c) runs under ftrace_lock().
 */
#ifndef FNTRACE_TRIGGERS_H
#define FNTRACE_TRIGGERS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/trigger.h"

struct ctl_out;
struct ft_context;
struct ft_thread;
struct ftrace_rec;

/*
 * One function's triggers: which commands it has, and the hits each has
 * left.  A hook reads armed and count while the control thread changes
 * them, so a slot is never freed; next_* are the control thread's own, a
 * write's plan before it is committed.
 */
struct ft_trigger_slot {
	_Atomic uint32_t armed;			/* a bit per command */
	uint32_t next_armed;
	_Atomic long count[TRIGGER_COMMANDS];	/* or TRIGGER_UNLIMITED */
	long next_count[TRIGGER_COMMANDS];
	/* snapshot_if_longer: its duration (the ticks stored before the
	 * bit that makes hooks read them), the calls that lasted as long,
	 * and those of them no snapshot was asked for: the interval */
	_Atomic uint64_t longer_ticks;
	unsigned long longer_us, next_longer_us;
	_Atomic uint64_t slow, suppressed;
};

/* Function id's slot; NULL if it has none (make: then one is made, NULL
 * only if out of memory). */
struct ft_trigger_slot *ft_trigger_slot(uint32_t id, int make);

/* A function with a trigger was called: what its command is told. */
struct ft_trigger_hit {
	struct ft_thread *t;
	struct ft_context *c;		/* the context the hook runs in */
	uint32_t id;
	uintptr_t parent_ip;
	uintptr_t *retp;		/* the slot of its return address */
	enum trigger_cmd cmd;
	_Atomic long *count;		/* this command's */
};

/* The probe ops' callback: ftrace_call's, for every enabled site while
 * some function has a trigger. */
void ft_trigger_call(uintptr_t self_ret, uintptr_t parent_ip, uintptr_t *retp);

/* The stacktrace command: the stack of h's call into h's context
 * (trigger_stack.c). */
void ft_trigger_stack(const struct ft_trigger_hit *h);

/* One hit from a count, if any is left (a compare-and-swap). */
int ft_trigger_take_count(_Atomic long *count);

/* ---- the snapshot commands (trigger_snap.c) ---- */

/* snapshot and dump: a snapshot asked for, never waited for. */
void ft_trigger_snapshot(const struct ft_trigger_hit *h);
/* A timed call closed (the graph's pop, thresh's path): entry and now in
 * clock ticks.  A snapshot is asked for if it lasted long enough, its
 * count and the interval allow. */
void ft_trigger_timed_exit(uint32_t id, uint32_t tid, uint64_t entry, uint64_t now);
/* snapshot_interval_ms: the least time between two snapshots the
 * duration triggers ask for (0: none). */
unsigned ft_trigger_interval_ms(void);
void ft_trigger_set_interval_ms(unsigned ms);
/* The default interval converted to clock ticks, if it is not yet: as
 * a duration trigger is set. */
void ft_trigger_interval_prepare(void);
/* The record flags of function id's triggers, for the update (ops.c):
 * FTRACE_FL_PROBED if one acts at its calls, FTRACE_FL_TIMED if its
 * calls are timed. */
uint32_t ft_trigger_rec_flags(uint32_t id);

/* What the graph hooks' fast return path (x86_64's entry.S) compares a
 * timed call with, in clock ticks: one shorter than both has nothing for
 * ft_trigger_timed_exit to do (not slow, no new maximum) and need not
 * leave the fast path.  ft_timed_max is tracing_max_latency;
 * ft_timed_shortest the shortest duration of the snapshot_if_longer
 * triggers armed (triggers.c lowers it before a write arms a shorter
 * one, and raises it after). */
extern _Atomic uint64_t ft_timed_max, ft_timed_shortest;

/* tracing_max_latency: the longest call the duration triggers timed, in
 * microseconds; set (0 resets it) on the control thread. */
uint64_t ft_trigger_max_latency_us(void);
void ft_trigger_set_max_latency_us(uint64_t us);

struct ft_snap;
/* The control thread took a snapshot a program thread asked for: a
 * trigger's request, if one is pending, says why in it (and whether the
 * ring still held the slow call's start); a dump is said on stderr. */
void ft_trigger_snap_note(struct ft_snap *snap);

/* ---- the control side (triggers.c) ---- */

/* The commands of one write, parsed and checked (a bad one: -1 with the
 * reason in err, and nothing changed); then committed, which updates the
 * sites (as ftrace_update(), which is the last thing it calls), or
 * dropped.  A commit that fails leaves the triggers as they were. */
struct ft_trigger_write;
int ft_triggers_prepare(struct ft_trigger_write **w, const char *const *exprs, unsigned n,
			char *err, size_t errlen);
int ft_triggers_commit(struct ft_trigger_write *w, char *err, size_t errlen);
void ft_triggers_drop(struct ft_trigger_write *w);

/* Every trigger, as set_ftrace_filter lists them: "func:traceoff:unlimited",
 * "func:stacktrace:count=3", the function as name() prints it. */
void ft_triggers_show(struct ctl_out *o,
		      void (*name)(struct ctl_out *o, const struct ftrace_rec *rec));
/* Every trigger removed (fntrace detach); -1 if the sites could not be
 * patched. */
int ft_triggers_clear(void);

#endif
