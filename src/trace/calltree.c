// SPDX-License-Identifier: GPL-2.0
/*
 * The tree of distinct stacks (calltree.h).  Each thread is walked once
 * with call_walk, which hands over calls that always nest; a stack of the
 * calls still open says which node a call belongs to and what its
 * children took, so a call's self time is known when it ends.
 *
 * Two hashes keep the walk at one probe per call: names to name indices
 * (through a per-process cache of function ids, so a name is hashed once
 * per process) and (parent, name) to the child node.
 */
#include "calltree.h"
#include "calls.h"
#include "../common/array.h"
#include "../common/sort.h"
#include "../common/print.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ---- */

static uint32_t hash_string(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static uint32_t *name_slot(const struct calltree *t, const char *name)
{
	uint32_t mask = t->nr_name_slots - 1, i = hash_string(name) & mask;

	while (t->name_slots[i] && strcmp(t->names[t->name_slots[i] - 1], name))
		i = (i + 1) & mask;
	return &t->name_slots[i];
}

/* Slots double before they are half full, so probes stay short. */
static int grow_name_slots(struct calltree *t)
{
	uint32_t old = t->nr_name_slots, *old_slots = t->name_slots;

	t->nr_name_slots = old ? 2 * old : 256;
	t->name_slots = calloc(t->nr_name_slots, sizeof(*t->name_slots));
	if (!t->name_slots) {
		t->name_slots = old_slots;
		t->nr_name_slots = old;
		return -1;
	}
	for (uint32_t i = 0; i < old; i++)
		if (old_slots[i])
			*name_slot(t, t->names[old_slots[i] - 1]) = old_slots[i];
	free(old_slots);
	return 0;
}

/* The index of name, added if new; -1 if out of memory. */
static int64_t name_index(struct calltree *t, const char *name)
{
	uint32_t *slot;

	if ((t->nr_names + 1) * 2 > t->nr_name_slots && grow_name_slots(t))
		return -1;
	slot = name_slot(t, name);
	if (*slot)
		return *slot - 1;
	if (grow_array((void **)&t->names, &t->cap_names, t->nr_names + 1, sizeof(*t->names)))
		return -1;
	t->names[t->nr_names] = strdup(name);
	if (!t->names[t->nr_names])
		return -1;
	*slot = ++t->nr_names;
	return *slot - 1;
}

/* A function id's name in th's process: "[lost]" for a frame entered
 * unseen, "[id:N]" if funcs-<pid> never named N. */
static int64_t name_of_func(struct calltree *t, const struct trace_data *td,
			    const struct tr_thread *th, uint32_t id)
{
	const struct tr_process *proc = th->proc;
	uint32_t **cache = &t->name_of_func[proc - td->procs];
	const char *name;
	char buf[32];
	int64_t idx;

	if (id < proc->nr_funcs && *cache && (*cache)[id])
		return (*cache)[id] - 1;
	name = id ? tr_func_name(proc, id) : CALLTREE_LOST_NAME;
	if (!name) {
		snprintf(buf, sizeof(buf), "[id:%u]", id);
		name = buf;
	}
	idx = name_index(t, name);
	if (idx < 0 || id >= proc->nr_funcs)
		return idx;
	if (!*cache && !(*cache = calloc(proc->nr_funcs, sizeof(**cache))))
		return -1;
	(*cache)[id] = idx + 1;
	return idx;
}

/* ---- nodes, found by (parent, name) ---- */

static uint32_t hash_child(uint32_t parent, uint32_t name)
{
	uint64_t k = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(k >> 32);
}

static uint32_t *child_slot(const struct calltree *t, uint32_t parent, uint32_t name)
{
	uint32_t mask = t->nr_child_slots - 1, i = hash_child(parent, name) & mask;

	for (;; i = (i + 1) & mask) {
		const struct calltree_node *n;

		if (!t->child_slots[i])
			return &t->child_slots[i];
		n = &t->nodes[t->child_slots[i] - 1];
		if (n->parent == parent && n->name == name)
			return &t->child_slots[i];
	}
}

static int grow_child_slots(struct calltree *t)
{
	uint32_t old = t->nr_child_slots, *old_slots = t->child_slots;

	t->nr_child_slots = old ? 2 * old : 1024;
	t->child_slots = calloc(t->nr_child_slots, sizeof(*t->child_slots));
	if (!t->child_slots) {
		t->child_slots = old_slots;
		t->nr_child_slots = old;
		return -1;
	}
	for (uint32_t i = 0; i < old; i++) {
		const struct calltree_node *n;

		if (!old_slots[i])
			continue;
		n = &t->nodes[old_slots[i] - 1];
		*child_slot(t, n->parent, n->name) = old_slots[i];
	}
	free(old_slots);
	return 0;
}

static int64_t add_node(struct calltree *t, uint32_t parent, uint32_t name)
{
	struct calltree_node *n;

	if (grow_array((void **)&t->nodes, &t->cap_nodes, t->nr_nodes + 1, sizeof(*t->nodes)))
		return -1;
	n = &t->nodes[t->nr_nodes];
	*n = (struct calltree_node) {
		.name = name, .parent = parent, .depth = t->nodes[parent].depth + 1,
		.next_sibling = t->nodes[parent].first_child,
	};
	t->nodes[parent].first_child = t->nr_nodes;
	if (n->depth > t->max_depth)
		t->max_depth = n->depth;
	return t->nr_nodes++;
}

/* The child of parent called name, added if new; -1 if out of memory. */
static int64_t child_node(struct calltree *t, uint32_t parent, uint32_t name)
{
	uint32_t *slot;
	int64_t node;

	if ((t->nr_nodes + 1) * 2 > t->nr_child_slots && grow_child_slots(t))
		return -1;
	slot = child_slot(t, parent, name);
	if (*slot)
		return *slot - 1;
	node = add_node(t, parent, name);
	if (node < 0)
		return -1;
	*slot = node + 1;
	return node;
}

/* ---- one thread's calls ---- */

static int enter(struct calltree *t, const struct trace_data *td,
		 const struct tr_thread *th, const struct call_event *ev)
{
	uint32_t parent = t->nr_open ? t->open[t->nr_open - 1].node : CALLTREE_ROOT;
	int64_t name = name_of_func(t, td, th, ev->func);
	int64_t node = name < 0 ? -1 : child_node(t, parent, name);

	if (node < 0 ||
	    grow_array((void **)&t->open, &t->cap_open, t->nr_open + 1, sizeof(*t->open)))
		return -1;
	t->open[t->nr_open++] = (struct calltree_open) { .node = node };
	return 0;
}

/* A call that ended took that long of its caller's time: the open
 * call's, or, for an outermost one, the root's. */
static void caller_took(struct calltree *t, uint64_t took)
{
	if (t->nr_open)
		t->open[t->nr_open - 1].children += took;
	else
		t->nodes[CALLTREE_ROOT].total += took;
}

/* call_walk closes every frame it opens, so each exit has its entry on
 * the stack.  A clock that stepped back inside a call cannot make its
 * self time negative. */
static void leave(struct calltree *t, const struct call_event *ev)
{
	struct calltree_open call = t->open[--t->nr_open];
	struct calltree_node *n = &t->nodes[call.node];
	uint64_t took = ev->time - ev->start;

	n->calls++;
	n->total += took;
	n->self += took > call.children ? took - call.children : 0;
	caller_took(t, took);
}

/* A whole call whose callers are known now, and each call below it, go
 * below the open call: the outermost one's time is that call's. */
static int whole_enter(void *arg, const struct whole_node *n)
{
	struct calltree *t = arg;
	uint32_t parent = t->nr_open ? t->open[t->nr_open - 1].node : CALLTREE_ROOT;
	int64_t name = n->key == WHOLE_UNKNOWN ? name_index(t, CALLTREE_UNFINISHED_NAME) : n->key;
	int64_t node = name < 0 ? -1 : child_node(t, parent, name);

	if (node < 0 ||
	    grow_array((void **)&t->open, &t->cap_open, t->nr_open + 1, sizeof(*t->open)))
		return -1;
	if (t->whole_level++ == 0)
		caller_took(t, n->total);
	t->nodes[node].calls += n->calls;
	t->nodes[node].total += n->total;
	t->nodes[node].self += n->self;
	t->open[t->nr_open++] = (struct calltree_open) { .node = node };
	return 0;
}

static void whole_leave(void *arg, const struct whole_node *n)
{
	struct calltree *t = arg;

	t->nr_open--;
	t->whole_level--;
}

static int whole(struct calltree *t, const struct trace_data *td,
		 const struct tr_thread *th, const struct call_event *ev)
{
	const struct whole_visitor v = { whole_enter, whole_leave, t };
	int64_t name = name_of_func(t, td, th, ev->func);

	if (name < 0)
		return -1;
	return whole_calls_add(&t->whole, name, ev->depth, ev->time - ev->start, t->nr_open,
			       &v);
}

/* ---- the kernel's events (record -e) ---- */

/* The thread's kernel events, the next to add. */
struct kev_walk {
	const struct tr_kevents *kev;
	const struct kev_record *recs;
	const struct tr_kev_ref *refs;
	size_t nr, next;
};

/* A frame of ns under parent that calls nothing traced: a system call's,
 * a time off the CPU's; its node, or -1 out of memory. */
static int64_t kernel_frame(struct calltree *t, uint32_t parent, const char *name, uint64_t ns)
{
	int64_t index = name_index(t, name);
	int64_t node = index < 0 ? -1 : child_node(t, parent, index);

	if (node >= 0) {
		t->nodes[node].calls++;
		t->nodes[node].total += ns;
		t->nodes[node].self += ns;
	}
	return node;
}

/* The return to a CPU after the switch at k->next - 1, if the trace has
 * it before the thread's next switch. */
static const struct kev_record *back_in(const struct kev_walk *k)
{
	for (size_t i = k->next; i < k->nr; i++) {
		const struct kev_record *r = &k->recs[k->refs[i].idx];

		if (r->kind == KEV_SWITCH_IN)
			return r;
		if (r->kind == KEV_SWITCH_OUT)
			break;
	}
	return NULL;
}

/* A time off the CPU from the switch out at k->next - 1, under parent:
 * its length, 0 if it never came back. */
static int64_t off_cpu(struct calltree *t, const struct kev_walk *k, const struct kev_record *out,
		       uint32_t parent)
{
	const struct kev_record *in = back_in(k);
	char name[32];

	if (!in)
		return 0;
	snprintf(name, sizeof(name), "[off CPU: %s]", tr_kev_state(out->nr));
	return kernel_frame(t, parent, name, in->time - out->time) < 0 ? -1 :
	       (int64_t)(in->time - out->time);
}

/* A system call from its entry at k->next - 1 to its return, with the
 * times off the CPU inside it below it; those events taken. */
static int syscall_frame(struct calltree *t, struct kev_walk *k, const struct kev_record *enter,
			 uint32_t parent)
{
	char name[48], buf[32];
	int64_t node, off = 0, took;
	uint64_t ns;
	size_t i;

	for (i = k->next; i < k->nr; i++)
		if (k->recs[k->refs[i].idx].kind == KEV_SYS_EXIT ||
		    k->recs[k->refs[i].idx].kind == KEV_SYS_ENTER)
			break;
	if (i == k->nr || k->recs[k->refs[i].idx].kind != KEV_SYS_EXIT)
		return 0;	/* no return in the trace: no length */
	snprintf(name, sizeof(name), "[syscall %s]",
		 tr_kev_call_name(k->kev, enter->nr, buf, sizeof(buf)));
	ns = k->recs[k->refs[i].idx].time - enter->time;
	node = kernel_frame(t, parent, name, ns);
	for (; node >= 0 && k->next < i; k->next++) {
		const struct kev_record *r = &k->recs[k->refs[k->next].idx];

		if (r->kind == KEV_SWITCH_OUT) {
			k->next++;
			took = off_cpu(t, k, r, node);
			k->next--;
			if (took < 0)
				return -1;
			off += took;
		}
	}
	if (node < 0)
		return -1;
	t->nodes[node].self -= (uint64_t)off < t->nodes[node].self ? (uint64_t)off :
				t->nodes[node].self;
	caller_took(t, ns);
	k->next = i + 1;
	return 0;
}

/* The thread's kernel events before time: system calls and times off
 * the CPU as frames below the call open then; none outside every call
 * (the start-up's, the exit's), which is no call's time. */
static int kernel_events(struct calltree *t, struct kev_walk *k, uint64_t time)
{
	while (k->next < k->nr && k->recs[k->refs[k->next].idx].time < time) {
		const struct kev_record *r = &k->recs[k->refs[k->next++].idx];
		uint32_t parent = t->nr_open ? t->open[t->nr_open - 1].node : CALLTREE_ROOT;
		int64_t took = 0;

		if (!t->nr_open)
			continue;
		if (r->kind == KEV_SYS_ENTER && syscall_frame(t, k, r, parent))
			return -1;
		if (r->kind == KEV_SWITCH_OUT && (took = off_cpu(t, k, r, parent)) < 0)
			return -1;
		if (took)
			caller_took(t, took);
	}
	return 0;
}

static int add_thread(struct calltree *t, struct trace_data *td, const struct tr_thread *th)
{
	struct kev_walk k = { .kev = &td->kev, .recs = td->kev.recs };
	const struct whole_visitor v = { whole_enter, whole_leave, t };
	struct call_walk walk;
	struct call_event ev;
	int more, err = 0;

	t->nr_open = 0;
	k.refs = tr_thread_kevents(td, th, &k.nr);
	call_walk_init(&walk, td, th);
	while (!err && (more = call_walk_next(&walk, &ev)) > 0) {
		if (kernel_events(t, &k, ev.time)) {
			err = -1;
			break;
		}
		/* At the trace's end, the calls still waiting go under the
		 * frames still open, before the walk closes those. */
		if (ev.kind == CALL_EXIT && ev.end == CALL_UNFINISHED)
			err = whole_calls_flush(&t->whole, t->nr_open, &v);
		if (err)
			break;
		if (ev.kind == CALL_ENTER)
			err = enter(t, td, th, &ev);
		else if (ev.kind == CALL_EXIT)
			leave(t, &ev);
		else if (ev.kind == CALL_WHOLE)
			err = whole(t, td, th, &ev);
	}
	call_walk_free(&walk);
	if (!err && more == 0)
		err = whole_calls_flush(&t->whole, t->nr_open, &v);
	if (err || more < 0) {
		pr_error("out of memory");
		return -1;
	}
	return 0;
}

/* ---- children in name order ---- */

struct named_child {
	const char *name;
	uint32_t node;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct named_child *)a)->name,
		      ((const struct named_child *)b)->name);
}

/* Relinks every list of children in name order, with one array as big as
 * the longest list. */
static int sort_children(struct calltree *t)
{
	struct named_child *kids = NULL;
	size_t cap = 0;

	for (uint32_t p = 0; p < t->nr_nodes; p++) {
		uint32_t nr = 0;

		for (uint32_t c = t->nodes[p].first_child; c; c = t->nodes[c].next_sibling) {
			if (grow_array((void **)&kids, &cap, nr + 1, sizeof(*kids))) {
				free(kids);
				pr_error("out of memory");
				return -1;
			}
			kids[nr++] = (struct named_child) { calltree_name(t, c), c };
		}
		sort_array(kids, nr, sizeof(*kids), by_name);
		t->nodes[p].first_child = CALLTREE_NONE;
		while (nr--) {
			t->nodes[kids[nr].node].next_sibling = t->nodes[p].first_child;
			t->nodes[p].first_child = kids[nr].node;
		}
	}
	free(kids);
	return 0;
}

/* ---- the tree ---- */

/* What only the walk needs: the hashes, the id caches, the open calls. */
static void drop_walk_state(struct calltree *t)
{
	for (unsigned i = 0; t->name_of_func && i < t->nr_procs; i++)
		free(t->name_of_func[i]);
	free(t->name_of_func);
	free(t->name_slots);
	free(t->child_slots);
	free(t->open);
	whole_calls_free(&t->whole);
	t->name_of_func = NULL;
	t->name_slots = t->child_slots = NULL;
	t->nr_name_slots = t->nr_child_slots = 0;
	t->open = NULL;
	t->nr_open = 0;
	t->cap_open = 0;
}

static int calltree_init(struct calltree *t, const struct trace_data *td)
{
	*t = (struct calltree) { .nr_procs = td->nr_procs };
	t->name_of_func = calloc(td->nr_procs ? td->nr_procs : 1, sizeof(*t->name_of_func));
	if (!t->name_of_func ||
	    grow_array((void **)&t->nodes, &t->cap_nodes, 1, sizeof(*t->nodes))) {
		calltree_free(t);
		pr_error("out of memory");
		return -1;
	}
	t->nr_nodes = 1;	/* the root, zeroed */
	return 0;
}

int calltree_build(struct calltree *t, struct trace_data *td,
		   const struct tr_thread *const *threads, unsigned nr_threads)
{
	if (!strcmp(td->info.tracer, "function")) {
		pr_error("%s: a trace of the function tracer has no durations: record with "
			 "-t function_graph for a flame graph", td->dir);
		return -1;
	}
	if (calltree_init(t, td))
		return -1;
	for (unsigned i = 0; i < nr_threads; i++) {
		if (add_thread(t, td, threads[i])) {
			calltree_free(t);
			return -1;
		}
	}
	drop_walk_state(t);
	if (sort_children(t)) {
		calltree_free(t);
		return -1;
	}
	return 0;
}

void calltree_free(struct calltree *t)
{
	drop_walk_state(t);
	for (uint32_t i = 0; i < t->nr_names; i++)
		free(t->names[i]);
	free(t->names);
	free(t->nodes);
	*t = (struct calltree) { 0 };
}

static uint32_t calltree_after(const struct calltree *t, uint32_t n)
{
	while (n != CALLTREE_ROOT && !t->nodes[n].next_sibling)
		n = t->nodes[n].parent;
	return n == CALLTREE_ROOT ? CALLTREE_NONE : t->nodes[n].next_sibling;
}

uint32_t calltree_next(const struct calltree *t, uint32_t n)
{
	if (t->nodes[n].first_child)
		return t->nodes[n].first_child;
	return calltree_after(t, n);
}
