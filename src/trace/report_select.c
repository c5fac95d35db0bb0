// SPDX-License-Identifier: GPL-2.0
/*
 * The report's rules on which events show (report_select.h), as a filter
 * over one thread's cursor.
 *
 * Each cursor keeps the stack of every frame its raw events have open,
 * shown or not, so that an exit finds its entry.  A shown frame's entry
 * goes to the view at once, or is held back:
 *  - with --min-duration, until its exit says whether it was long enough;
 *  - while the range has not begun, until something inside the range
 *    happens within it (a child shown, a marker, its own exit).
 * Whenever an event goes out, the held entries of the frames around it
 * go out first, outermost first, so the view always sees whole nesting.
 * This is right for --min-duration because a parent lasts at least as
 * long as any of its children: a child long enough to show proves its
 * ancestors are too, and since they have not returned yet, the view
 * still gets each one's entry before its exit.  Memory is the stack and
 * one raw event's worth of output: the depth of the deepest call, never
 * the length of the trace.  The price: a held call reaches the view when
 * it returns, so the lines of different threads come in exit order.
 */
#include "report_select.h"
#include "report_int.h"
#include "../common/array.h"
#include "../common/filter.h"
#include "../common/print.h"

#include <stdlib.h>
#include <string.h>

/* ---- the rules ---- */

/* The first event of any thread: where relative times count from. */
static uint64_t first_event_time(struct trace_data *td)
{
	uint64_t first = UINT64_MAX;

	for (unsigned i = 0; i < td->nr_threads; i++) {
		struct tr_cursor c;
		const struct tr_event *ev;

		tr_cursor_init(&c, td, &td->threads[i]);
		ev = tr_cursor_peek(&c);
		if (ev && ev->time < first)
			first = ev->time;
		tr_cursor_free(&c);
	}
	return first == UINT64_MAX ? 0 : first;
}

static uint64_t resolve(const struct report_time *t, uint64_t origin, uint64_t open)
{
	if (!t->set)
		return open;
	if (t->absolute)
		return t->ns;
	return t->ns > UINT64_MAX - origin ? UINT64_MAX : origin + t->ns;
}

static int resolve_range(struct selection *s, struct trace_data *td,
			 const struct report_options *o)
{
	uint64_t origin = 0;

	if ((o->from.set && !o->from.absolute) || (o->to.set && !o->to.absolute))
		origin = first_event_time(td);
	s->from = resolve(&o->from, origin, 0);
	s->to = resolve(&o->to, origin, UINT64_MAX);
	if (s->to < s->from) {
		pr_error("--time-range: its end is before its start");
		return -1;
	}
	return 0;
}

static int has_rules(const struct filter *f)
{
	return f && f->nr;
}

int selection_init(struct selection *s, struct trace_data *td,
		   const struct report_options *o)
{
	*s = (struct selection) { .opt = o, .td = td };
	s->by_name = has_rules(o->filter) || has_rules(o->notrace);
	s->unknown_shown = !(o->filter && o->filter->nr_add);
	s->active = s->by_name || o->max_depth || o->min_duration ||
		    o->from.set || o->to.set;
	if (resolve_range(s, td, o))
		return -1;
	s->verdicts = calloc(td->nr_procs ? td->nr_procs : 1, sizeof(*s->verdicts));
	if (!s->verdicts) {
		pr_error("out of memory");
		return -1;
	}
	return 0;
}

void selection_free(struct selection *s)
{
	for (unsigned i = 0; s->verdicts && i < s->td->nr_procs; i++)
		free(s->verdicts[i]);
	free(s->verdicts);
	s->verdicts = NULL;
}

/* The file name of the module a function lies in, as record's :mod:
 * matches it. */
static const char *module_of(const struct tr_process *proc, uint32_t id)
{
	unsigned idx;
	const char *slash;

	if (id >= proc->nr_funcs || !proc->funcs[id].name)
		return NULL;
	idx = proc->funcs[id].module;
	for (unsigned i = 0; i < proc->nr_modules; i++) {
		if (proc->modules[i].idx != idx)
			continue;
		slash = strrchr(proc->modules[i].path, '/');
		return slash ? slash + 1 : proc->modules[i].path;
	}
	return NULL;
}

static int decide(const struct selection *s, const struct tr_thread *th, uint32_t id)
{
	const struct report_options *o = s->opt;
	char buf[REPORT_NAME_LEN];
	const char *name = report_func_name(th, id, buf, sizeof(buf));
	const char *module = module_of(th->proc, id);
	/* the symbol too, for a C++ function: -F takes either name */
	const char *symbol = id < th->proc->nr_funcs ? th->proc->funcs[id].symbol : NULL;

	return (!o->filter || filter_selects_as(o->filter, name, symbol, module)) &&
	       !(o->notrace && filter_matches_any_as(o->notrace, name, symbol, module));
}

/* Names are matched once per process and function id. */
static int name_shown(struct selection *s, const struct tr_thread *th, uint32_t id)
{
	const struct tr_process *proc = th->proc;
	unsigned char **cache = &s->verdicts[proc - s->td->procs];

	if (!s->by_name)
		return 1;
	if (id >= proc->nr_funcs)
		return decide(s, th, id);
	if (!*cache && !(*cache = calloc(proc->nr_funcs, 1))) {
		s->out_of_memory = 1;
		return decide(s, th, id);
	}
	if (!(*cache)[id])
		(*cache)[id] = decide(s, th, id) ? 1 : 2;
	return (*cache)[id] == 1;
}

static int in_range(const struct selection *s, uint64_t t)
{
	return t >= s->from && t <= s->to;
}

/* ---- what goes to the view ---- */

static void put(struct sel_cursor *c, const struct tr_event *ev)
{
	if (grow_array((void **)&c->queue, &c->cap_queue, c->nr_queue + 1,
		       sizeof(*c->queue))) {
		c->sel->out_of_memory = 1;
		return;
	}
	c->queue[c->nr_queue++] = *ev;
}

/* Hands on the held entries among the innermost n frames' ancestors and
 * themselves, outermost first. */
static void release_held(struct sel_cursor *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct sel_frame *f = &c->stack[i];

		if (f->shown && !f->emitted) {
			put(c, &f->entry);
			f->emitted = 1;
			c->emitted_depth++;
		}
	}
}

static int push(struct sel_cursor *c, const struct tr_event *entry, int shown)
{
	if (grow_array((void **)&c->stack, &c->cap, c->depth + 1, sizeof(*c->stack))) {
		c->sel->out_of_memory = 1;
		return -1;
	}
	c->stack[c->depth++] = (struct sel_frame) { .entry = *entry, .shown = shown };
	c->shown_depth += shown;
	return 0;
}

static struct sel_frame pop(struct sel_cursor *c)
{
	struct sel_frame f = c->stack[--c->depth];

	c->shown_depth -= f.shown;
	c->emitted_depth -= f.emitted;
	return f;
}

static int too_deep(const struct sel_cursor *c)
{
	unsigned max = c->sel->opt->max_depth;

	return max && c->shown_depth >= max;
}

static void on_entry(struct sel_cursor *c, const struct tr_event *ev)
{
	struct selection *s = c->sel;
	int shown = ev->time <= s->to && !too_deep(c) && name_shown(s, c->th, ev->func);

	if (push(c, ev, shown) || !shown)
		return;
	if (!s->opt->min_duration && ev->time >= s->from)
		release_held(c, c->depth);
}

/* Long enough, and still running once the range began: a held call is
 * shown. */
static int worth_showing(const struct selection *s, const struct sel_frame *f, uint64_t end)
{
	uint64_t dur = end > f->entry.time ? end - f->entry.time : 0;

	return dur >= s->opt->min_duration && end >= s->from;
}

static void on_return(struct sel_cursor *c, const struct tr_event *ev)
{
	struct selection *s = c->sel;
	struct sel_frame f;

	if (!c->depth) {
		/* Entered before the trace began: nothing says which function
		 * it was, so only an unfiltered report shows its brace. */
		if (!s->by_name && !s->opt->min_duration && in_range(s, ev->time))
			put(c, ev);
		return;
	}
	f = pop(c);
	if (f.emitted) {
		put(c, ev);
	} else if (f.shown && worth_showing(s, &f, ev->time)) {
		release_held(c, c->depth);
		put(c, &f.entry);
		put(c, ev);
	}
}

/* Frames beyond the resumed depth returned unseen; frames missing from
 * it were entered unseen and stand in as function 0.  The LOST goes on
 * inside the range, or when it closes frames the view has open. */
static void on_lost(struct sel_cursor *c, const struct tr_event *ev)
{
	struct selection *s = c->sel;
	unsigned resume = tr_resume_depth(ev);
	unsigned open_in_view = c->emitted_depth;
	struct tr_event unseen = { .type = TR_ENTRY, .time = ev->time, .cpu = ev->cpu,
				   .comm = ev->comm };
	struct tr_event said = *ev;
	int keep;

	while (c->depth > resume)
		pop(c);
	keep = in_range(s, ev->time) || c->emitted_depth < open_in_view;
	if (keep)
		release_held(c, c->depth);
	while (c->depth < resume) {
		int shown = keep && s->unknown_shown && !too_deep(c);

		if (push(c, &unseen, shown))
			return;
		c->stack[c->depth - 1].emitted = shown;
		c->emitted_depth += shown;
	}
	if (keep) {
		said.depth = c->emitted_depth;
		put(c, &said);
	}
}

/*
 * A whole call (tracing_thresh), known only at its exit: shown as a call
 * would be, by its name, its depth among the frames shown, its length,
 * and whether it overlaps the range.  The frames open around it that
 * the view holds back go out first: a call inside them proves them long
 * enough, and running within the range.
 */
static void on_call(struct sel_cursor *c, const struct tr_event *ev)
{
	struct selection *s = c->sel;
	unsigned hidden = c->depth - c->shown_depth, max = s->opt->max_depth;
	struct tr_event said = *ev;

	said.depth = ev->depth > hidden ? ev->depth - hidden : 0;
	if (ev->value < s->opt->min_duration || ev->time < s->from ||
	    ev->time - ev->value > s->to || (max && said.depth >= max) ||
	    !name_shown(s, c->th, ev->func))
		return;
	release_held(c, c->depth);
	put(c, &said);
}

static void take(struct sel_cursor *c, const struct tr_event *ev)
{
	struct selection *s = c->sel;

	switch (ev->type) {
	case TR_ENTRY:
		on_entry(c, ev);
		break;
	case TR_EXIT:
		on_return(c, ev);
		break;
	case TR_LOST:
		on_lost(c, ev);
		break;
	case TR_MARKER:
		/* A marker opens the calls around it that the range held
		 * back; not those --min-duration holds, which may yet prove
		 * short: it then comes at the depth of the calls printed. */
		if (!in_range(s, ev->time))
			break;
		if (!s->opt->min_duration)
			release_held(c, c->depth);
		put(c, ev);
		break;
	case TR_FUNC:
		if (in_range(s, ev->time) && name_shown(s, c->th, ev->func))
			put(c, ev);
		break;
	case TR_CALL:
		on_call(c, ev);
		break;
	}
}

/* The trace ends with frames open: a held one that had lasted long
 * enough by the thread's last event, and overlaps the range, is shown
 * (unfinished, as the views show any call still running). */
static void take_end(struct sel_cursor *c)
{
	unsigned n = c->depth;

	while (n && !(c->stack[n - 1].shown && !c->stack[n - 1].emitted &&
		      worth_showing(c->sel, &c->stack[n - 1], c->last_time)))
		n--;
	release_held(c, n);
}

/* Reads raw events until one releases something, or the thread ends. */
static void fill(struct sel_cursor *c)
{
	struct tr_event ev;

	c->nr_queue = c->next_queue = 0;
	while (!c->nr_queue && !c->done) {
		if (!tr_cursor_next(&c->raw, &ev)) {
			c->done = 1;
			c->when = c->last_time;
			take_end(c);
			break;
		}
		c->when = c->last_time = ev.time;
		take(c, &ev);
		/* Past the range with no shown call open: nothing further
		 * of this thread can show.  Unless calls come whole at their
		 * exits (tracing_thresh): one that began in the range may
		 * end any time later. */
		if (ev.time > c->sel->to && !c->shown_depth && !c->sel->td->info.thresh)
			c->done = 1;
	}
}

void sel_cursor_init(struct sel_cursor *c, struct selection *s, const struct tr_thread *th)
{
	*c = (struct sel_cursor) { .sel = s, .th = th };
	tr_cursor_init(&c->raw, s->td, th);
}

void sel_cursor_free(struct sel_cursor *c)
{
	tr_cursor_free(&c->raw);
	free(c->stack);
	free(c->queue);
	c->stack = NULL;
	c->queue = NULL;
}

const struct tr_event *sel_cursor_peek(struct sel_cursor *c)
{
	if (!c->sel->active)
		return tr_cursor_peek(&c->raw);
	if (c->next_queue == c->nr_queue)
		fill(c);
	return c->next_queue < c->nr_queue ? &c->queue[c->next_queue] : NULL;
}

int sel_cursor_next(struct sel_cursor *c, struct tr_event *ev)
{
	if (!c->sel->active)
		return tr_cursor_next(&c->raw, ev);
	if (!sel_cursor_peek(c))
		return 0;
	*ev = c->queue[c->next_queue++];
	return 1;
}

uint64_t sel_cursor_when(struct sel_cursor *c)
{
	const struct tr_event *ev = sel_cursor_peek(c);

	if (!c->sel->active)
		return ev ? ev->time : 0;
	return c->when;
}
