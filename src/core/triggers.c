// SPDX-License-Identifier: GPL-2.0
/*
 * Function triggers from the control side: the commands of a write to
 * set_ftrace_filter parsed, checked and applied together, the probe ops
 * that keeps their functions' sites on, and the listing.
 *
 * A write is planned before anything changes: each command's functions
 * get the state it leaves them in (a slot's next_* fields, starting from
 * what the slot holds; a later command of the same write sees an earlier
 * one's), so a command refused anywhere in the write changes nothing and
 * no hook ever sees half a write.  The commit stores the plan, then makes
 * the sites agree (registering the probe ops with the first trigger,
 * removing it with the last); if that fails, every slot goes back.
 */
#include "ftrace.h"
#include "plain_names.h"
#include "control.h"
#include "tracers.h"
#include "tracing.h"
#include "snapshot_ctl.h"
#include "thresh.h"
#include "triggers.h"
#include "../common/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The probe ops wants the functions with a command armed. */
static int selects(uint32_t id)
{
	struct ft_trigger_slot *s = ft_trigger_slot(id, 0);

	return s && atomic_load(&s->armed);
}

static struct ftrace_ops probe_ops = {
	.func = ft_trigger_call,
	.selects = selects,
	.flags = FTRACE_OPS_FL_PROBE,
};
static int registered;
static unsigned long nr_armed;	/* (function, command) pairs armed */

/* A function the write touched, and what it held before. */
struct touched {
	uint32_t id;
	uint32_t armed;
	long count[TRIGGER_COMMANDS];
	unsigned long longer_us;
};

struct ft_trigger_write {
	struct touched *v;
	size_t nr, cap;
};

/* ---- one command, parsed ---- */

struct command {
	struct trigger_expr expr;
	struct filter func;		/* what FUNC matches */
};

static int refuse(char *err, size_t errlen, const char *why, const char *text)
{
	snprintf(err, errlen, "%s: '%s'", why, text);
	return -1;
}

static int parse_command(struct command *c, const char *text, char *err, size_t errlen)
{
	return trigger_parse(&c->expr, text, err, errlen) ||
	       filter_add(&c->func, c->expr.func, err, errlen);
}

static void command_free(struct command *c)
{
	trigger_expr_free(&c->expr);
	filter_free(&c->func);
}

/* ---- the plan ---- */

/* A slot's commands as the write leaves them so far. */
#define PLANNED (1u << 31)	/* in next_armed: the write touched it */

static uint32_t planned(const struct ft_trigger_slot *s)
{
	return s->next_armed & PLANNED ? s->next_armed & ~PLANNED : atomic_load(&s->armed);
}

/* The write is about to change s (function id's): what it holds is kept,
 * to undo, and becomes the plan's start.  -1 if out of memory. */
static int plan_slot(struct ft_trigger_write *w, struct ft_trigger_slot *s, uint32_t id)
{
	struct touched *t;

	if (s->next_armed & PLANNED)
		return 0;
	if (grow_array((void **)&w->v, &w->cap, w->nr + 1, sizeof(*w->v)))
		return -1;
	t = &w->v[w->nr++];
	t->id = id;
	t->armed = atomic_load(&s->armed);
	s->next_armed = t->armed | PLANNED;
	for (unsigned i = 0; i < TRIGGER_COMMANDS; i++)
		s->next_count[i] = t->count[i] = atomic_load(&s->count[i]);
	s->next_longer_us = t->longer_us = s->longer_us;
	return 0;
}

static int matches(const struct command *c, const struct ftrace_rec *rec)
{
	return !(rec->flags & FTRACE_FL_DISABLED) &&
	       filter_matches_any_as(&c->func, rec->name, ft_plain_name(&c->func, rec),
				     ftrace_module_get(rec->module)->name);
}

/* How many functions the command arms (or disarms: those that had it);
 * -1 if out of memory. */
static long plan_command(struct ft_trigger_write *w, const struct command *c)
{
	const struct trigger_expr *e = &c->expr;
	uint32_t bit = 1u << e->cmd;
	long n = 0;

	for (uint32_t id = 1; id <= ftrace_rec_count(); id++) {
		struct ft_trigger_slot *s;

		if (!matches(c, ftrace_rec_get(id)))
			continue;
		s = ft_trigger_slot(id, !e->remove);
		if (e->remove && (!s || !(planned(s) & bit)))
			continue;
		if (!s || plan_slot(w, s, id))
			return -1;
		if (e->remove)
			s->next_armed &= ~bit;
		else
			s->next_armed |= bit;
		s->next_count[e->cmd] = e->remove ? 0 : e->count;
		if (!e->remove && e->cmd == TRIGGER_SNAPSHOT_IF_LONGER)
			s->next_longer_us = e->usec;
		n++;
	}
	return n;
}

static int plan(struct ft_trigger_write *w, const char *text, char *err, size_t errlen)
{
	struct command c = { 0 };
	long n = parse_command(&c, text, err, errlen) ? -2 : plan_command(w, &c);
	int remove = c.expr.remove;

	command_free(&c);
	if (n == -2)
		return -1;
	if (n < 0)
		return refuse(err, errlen, "out of memory", text);
	if (n == 0)
		return refuse(err, errlen, remove ? "no such trigger" : "no such function", text);
	return 0;
}

/* The planned marks wiped: the slots are as if no write had been. */
static void forget_plan(struct ft_trigger_write *w)
{
	for (size_t i = 0; i < w->nr; i++)
		ft_trigger_slot(w->v[i].id, 0)->next_armed = 0;
}

void ft_triggers_drop(struct ft_trigger_write *w)
{
	if (!w)
		return;
	forget_plan(w);
	free(w->v);
	free(w);
}

int ft_triggers_prepare(struct ft_trigger_write **out, const char *const *exprs, unsigned n,
			char *err, size_t errlen)
{
	struct ft_trigger_write *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (!w)
		return refuse(err, errlen, "out of memory", exprs[0]);
	for (unsigned i = 0; i < n; i++)
		if (plan(w, exprs[i], err, errlen)) {
			ft_triggers_drop(w);
			return -1;
		}
	*out = w;
	return 0;
}

/* ---- what the fast paths need to know ---- */

#define TIMED_BIT (1u << TRIGGER_SNAPSHOT_IF_LONGER)

uint32_t ft_trigger_rec_flags(uint32_t id)
{
	const struct ft_trigger_slot *s = ft_trigger_slot(id, 0);
	uint32_t armed = s ? atomic_load(&s->armed) : 0;

	return (armed & ~TIMED_BIT ? FTRACE_FL_PROBED : 0) |
	       (armed & TIMED_BIT ? FTRACE_FL_TIMED : 0);
}

static uint64_t longer_ticks(unsigned long us)
{
	return us ? ft_clock_us_to_ticks(us) : 0;
}

/* Before a write is stored: no shorter than what it arms. */
static void lower_shortest(const struct ft_trigger_write *w)
{
	uint64_t shortest = atomic_load(&ft_timed_shortest);

	for (size_t i = 0; i < w->nr; i++) {
		const struct ft_trigger_slot *s = ft_trigger_slot(w->v[i].id, 0);

		if ((s->next_armed & TIMED_BIT) && longer_ticks(s->next_longer_us) < shortest)
			shortest = longer_ticks(s->next_longer_us);
	}
	atomic_store(&ft_timed_shortest, shortest);
}

/* After: the shortest armed, as it is now. */
static void reset_shortest(void)
{
	uint64_t shortest = UINT64_MAX;

	for (uint32_t id = 1; id <= ftrace_rec_count(); id++) {
		const struct ft_trigger_slot *s = ft_trigger_slot(id, 0);

		if (s && (atomic_load(&s->armed) & TIMED_BIT) &&
		    atomic_load(&s->longer_ticks) < shortest)
			shortest = atomic_load(&s->longer_ticks);
	}
	atomic_store(&ft_timed_shortest, shortest);
}

/* ---- the commit ---- */

/* By hand: gcc makes __builtin_popcount a call to libgcc's
 * __popcountdi2 on aarch64, which counts in a vector register, and the
 * runtime touches the floating-point registers in its entry stubs only
 * (tests/cases/args/args_cross.sh). */
static unsigned bits(uint32_t v)
{
	unsigned n = 0;

	for (v &= (1u << TRIGGER_COMMANDS) - 1; v; v &= v - 1)
		n++;
	return n;
}

/* Counts and duration first, then the bits that make hooks read them. */
static void store(struct ft_trigger_slot *s, uint32_t armed, const long *count,
		  unsigned long longer_us)
{
	for (unsigned i = 0; i < TRIGGER_COMMANDS; i++)
		atomic_store(&s->count[i], count[i]);
	if (longer_us)
		ft_trigger_interval_prepare();
	if (longer_us != s->longer_us)
		atomic_store(&s->longer_ticks, longer_ticks(longer_us));
	s->longer_us = longer_us;
	nr_armed += bits(armed);
	nr_armed -= bits(atomic_exchange(&s->armed, armed));
}

static void store_plan(struct ft_trigger_write *w)
{
	for (size_t i = 0; i < w->nr; i++) {
		struct ft_trigger_slot *s = ft_trigger_slot(w->v[i].id, 0);

		store(s, s->next_armed & ~PLANNED, s->next_count, s->next_longer_us);
	}
}

static void undo_plan(struct ft_trigger_write *w)
{
	for (size_t i = 0; i < w->nr; i++)
		store(ft_trigger_slot(w->v[i].id, 0), w->v[i].armed, w->v[i].count,
		      w->v[i].longer_us);
}

/* The probe ops in with the first trigger, out with the last; otherwise
 * one update.  The graph hooks leave their fast path while it is in, as
 * that path never reaches ftrace_call. */
static int sync_ops(char *err, size_t errlen)
{
	int ret;

	if (nr_armed && !registered) {
		if (ft_get_ready(err, errlen))
			return -1;
		ft_graph.probes = 1;
		ret = register_ftrace_ops(&probe_ops);
		registered = ret == 0;
		ft_graph.probes = registered;
	} else if (!nr_armed && registered) {
		ret = unregister_ftrace_ops(&probe_ops);
		registered = ret != 0;
		ft_graph.probes = registered;
	} else {
		ret = ftrace_update();
	}
	if (ret)
		ft_update_failed(err, errlen, "cannot patch, nothing changed");
	return ret;
}

/* Does the plan arm a command that takes snapshots? */
static int arms_snapshots(const struct ft_trigger_write *w)
{
	const uint32_t snapshots = 1u << TRIGGER_SNAPSHOT | 1u << TRIGGER_DUMP |
				   1u << TRIGGER_SNAPSHOT_IF_LONGER;

	for (size_t i = 0; i < w->nr; i++)
		if (ft_trigger_slot(w->v[i].id, 0)->next_armed & snapshots)
			return 1;
	return 0;
}

int ft_triggers_commit(struct ft_trigger_write *w, char *err, size_t errlen)
{
	int ret;

	/* The snapshot buffer first, as the kernel's registration makes it:
	 * a trigger's first snapshot then copies, with no fresh memory to
	 * touch, and one that cannot be made refuses the write. */
	if (arms_snapshots(w) && (ft_get_ready(err, errlen) || ft_snapshot_alloc(err, errlen))) {
		ft_triggers_drop(w);
		return -1;
	}
	lower_shortest(w);
	store_plan(w);
	ret = sync_ops(err, errlen);
	if (ret)
		undo_plan(w);
	reset_shortest();
	ft_triggers_drop(w);
	return ret;
}

int ft_triggers_clear(void)
{
	char err[160];
	int ret;

	if (!nr_armed && !registered)
		return 0;
	for (uint32_t id = 1; id <= ftrace_rec_count(); id++) {
		struct ft_trigger_slot *s = ft_trigger_slot(id, 0);
		long none[TRIGGER_COMMANDS] = { 0 };

		if (s)
			store(s, 0, none, s->longer_us);
	}
	ret = sync_ops(err, sizeof(err));
	reset_shortest();
	return ret;
}

/* ---- the listing ---- */

/* A command's parameters as they are written back: the count, and for
 * snapshot_if_longer its duration first and its tallies after a '#',
 * which a writer of the line leaves out (record_settings.c). */
static void show_command(struct ctl_out *o, const struct ft_trigger_slot *s, unsigned cmd)
{
	long count = atomic_load(&s->count[cmd]);

	ctl_printf(o, ":%s", trigger_commands[cmd].name);
	if (cmd == TRIGGER_SNAPSHOT_IF_LONGER)
		ctl_printf(o, ":%lu", s->longer_us);
	if (count == TRIGGER_UNLIMITED)
		ctl_printf(o, ":unlimited");
	else
		ctl_printf(o, ":count=%ld", count);
	if (cmd == TRIGGER_SNAPSHOT_IF_LONGER)
		ctl_printf(o, " # slow=%llu suppressed=%llu",
			   (unsigned long long)atomic_load(&s->slow),
			   (unsigned long long)atomic_load(&s->suppressed));
	ctl_printf(o, "\n");
}

void ft_triggers_show(struct ctl_out *o,
		      void (*name)(struct ctl_out *o, const struct ftrace_rec *rec))
{
	for (uint32_t id = 1; nr_armed && id <= ftrace_rec_count(); id++) {
		struct ft_trigger_slot *s = ft_trigger_slot(id, 0);
		uint32_t armed = s ? atomic_load(&s->armed) : 0;

		if (ftrace_rec_get(id)->flags & FTRACE_FL_DISABLED)
			continue;	/* its module is gone */
		for (unsigned i = 0; i < TRIGGER_COMMANDS; i++) {
			if (!(armed >> i & 1))
				continue;
			name(o, ftrace_rec_get(id));
			show_command(o, s, i);
		}
	}
}
