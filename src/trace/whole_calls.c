// SPDX-License-Identifier: GPL-2.0
/*
 * Whole calls waiting for their callers (whole_calls.h).  The waiting
 * calls of depth d are the children of one node, waiting[d]; the calls
 * of depth d + 1 a call at depth d takes as its callees are the children
 * of waiting[d + 1], moved under it.  Nodes are indices into one array,
 * reused through a free list, and every walk of a tree is a loop, not a
 * recursion: a recursive program's stacks may be thousands deep.
 */
#include "whole_calls.h"
#include "../common/array.h"

#include <stdlib.h>

void whole_calls_init(struct whole_calls *w)
{
	*w = (struct whole_calls) { 0 };
}

void whole_calls_free(struct whole_calls *w)
{
	free(w->nodes);
	free(w->waiting);
	free(w->merges);
	whole_calls_init(w);
}

/* ---- nodes ---- */

static int64_t node_new(struct whole_calls *w, uint32_t key)
{
	uint32_t i = w->free_nodes;

	if (i) {
		w->free_nodes = w->nodes[i].next_sibling;
	} else {
		if (!w->nr_nodes)
			w->nr_nodes = 1;	/* 0 is none */
		if (grow_array((void **)&w->nodes, &w->cap_nodes, w->nr_nodes + 1,
			       sizeof(*w->nodes)))
			return -1;
		i = w->nr_nodes++;
	}
	w->nodes[i] = (struct whole_node) { .key = key };
	return i;
}

static void node_drop(struct whole_calls *w, uint32_t i)
{
	w->nodes[i].next_sibling = w->free_nodes;
	w->free_nodes = i;
}

static void link_child(struct whole_calls *w, uint32_t parent, uint32_t child)
{
	w->nodes[child].parent = parent;
	w->nodes[child].next_sibling = w->nodes[parent].first_child;
	w->nodes[parent].first_child = child;
}

/* Linear: the calls one caller made are few kinds, as a rule. */
static uint32_t child_of(const struct whole_calls *w, uint32_t parent, uint32_t key)
{
	uint32_t c = w->nodes[parent].first_child;

	while (c && w->nodes[c].key != key)
		c = w->nodes[c].next_sibling;
	return c;
}

/* parent's child of key, made if there is none; -1 if out of memory. */
static int64_t child_made(struct whole_calls *w, uint32_t parent, uint32_t key)
{
	uint32_t c = child_of(w, parent, key);
	int64_t n;

	if (c)
		return c;
	n = node_new(w, key);
	if (n > 0)
		link_child(w, parent, n);
	return n;
}

static void add_counts(struct whole_node *to, const struct whole_node *from)
{
	to->calls += from->calls;
	to->total += from->total;
	to->self += from->self;
	to->total_sq += from->total_sq;
}

static uint64_t children_total(const struct whole_calls *w, uint32_t parent)
{
	uint64_t sum = 0;

	for (uint32_t c = w->nodes[parent].first_child; c; c = w->nodes[c].next_sibling)
		sum += w->nodes[c].total;
	return sum;
}

/* ---- moving calls between callers ---- */

static int push_merge(struct whole_calls *w, uint32_t to, uint32_t from)
{
	if (grow_array((void **)&w->merges, &w->cap_merges, w->nr_merges + 1,
		       sizeof(*w->merges)))
		return -1;
	w->merges[w->nr_merges].to = to;
	w->merges[w->nr_merges++].from = from;
	return 0;
}

/* from's children go under to; one whose key to has already adds its
 * counts there, and its own children follow it (a merge to do). */
static int move_children(struct whole_calls *w, uint32_t to, uint32_t from)
{
	uint32_t c = w->nodes[from].first_child;

	w->nodes[from].first_child = 0;
	while (c) {
		uint32_t next = w->nodes[c].next_sibling, same = child_of(w, to, w->nodes[c].key);

		if (same) {
			add_counts(&w->nodes[same], &w->nodes[c]);
			if (push_merge(w, same, c))
				return -1;
		} else {
			link_child(w, to, c);
		}
		c = next;
	}
	return 0;
}

/* Every call below from goes below to, added up by key; from stays. */
static int merge_children(struct whole_calls *w, uint32_t to, uint32_t from)
{
	w->nr_merges = 0;
	if (move_children(w, to, from))
		return -1;
	while (w->nr_merges) {
		struct whole_merge m = w->merges[--w->nr_merges];

		if (move_children(w, m.to, m.from))
			return -1;
		node_drop(w, m.from);
	}
	return 0;
}

/* The node whose children wait at depth; -1 if out of memory. */
static int64_t waiting_at(struct whole_calls *w, unsigned depth)
{
	int64_t n;

	if (depth >= w->nr_waiting) {
		size_t old = w->nr_waiting;

		if (grow_array((void **)&w->waiting, &w->cap_waiting, depth + 1,
			       sizeof(*w->waiting)))
			return -1;
		for (size_t i = old; i <= depth; i++)
			w->waiting[i] = 0;
		w->nr_waiting = depth + 1;
	}
	if (w->waiting[depth])
		return w->waiting[depth];
	n = node_new(w, WHOLE_UNKNOWN);
	if (n > 0)
		w->waiting[depth] = n;
	return n;
}

static int has_waiting(const struct whole_calls *w, unsigned depth)
{
	return depth < w->nr_waiting && w->waiting[depth] &&
	       w->nodes[w->waiting[depth]].first_child;
}

/* Calls waiting deeper than depth + 1, whose callers at the levels
 * between never came, go below stand-ins at depth + 1.  From the deepest
 * level that may hold any: a damaged trace's depths alternating between
 * 0 and 65535 must not cost a scan of every level each call. */
static int fold_deeper(struct whole_calls *w, int depth)
{
	for (int k = (int)w->nr_deep - 1; k >= depth + 2; k--) {
		int64_t above, stand_in;

		if (!has_waiting(w, k))
			continue;
		above = waiting_at(w, k - 1);
		stand_in = above > 0 ? child_made(w, above, WHOLE_UNKNOWN) : -1;
		if (stand_in < 0)
			return -1;
		w->nodes[stand_in].total += children_total(w, w->waiting[k]);
		if (merge_children(w, stand_in, w->waiting[k]))
			return -1;
	}
	if (depth + 2 >= 0 && (unsigned)depth + 2 < w->nr_deep)
		w->nr_deep = depth + 2;
	return 0;
}

/* ---- visiting ---- */

/* top and the calls below it, each entered before its callees and left
 * after them. */
static int visit(struct whole_calls *w, uint32_t top, const struct whole_visitor *v)
{
	uint32_t n = top;

	if (v->enter(v->arg, &w->nodes[n]))
		return -1;
	for (;;) {
		if (w->nodes[n].first_child) {
			n = w->nodes[n].first_child;
		} else {
			while (n != top && !w->nodes[n].next_sibling) {
				v->leave(v->arg, &w->nodes[n]);
				n = w->nodes[n].parent;
			}
			v->leave(v->arg, &w->nodes[n]);
			if (n == top)
				return 0;
			n = w->nodes[n].next_sibling;
		}
		if (v->enter(v->arg, &w->nodes[n]))
			return -1;
	}
}

/* top and the calls below it back to the free list, callees first. */
static void drop_tree(struct whole_calls *w, uint32_t top)
{
	uint32_t n = top;

	for (;;) {
		while (w->nodes[n].first_child)
			n = w->nodes[n].first_child;
		for (;;) {
			uint32_t next = w->nodes[n].next_sibling, parent = w->nodes[n].parent;
			int last = n == top;

			node_drop(w, n);
			if (last)
				return;
			if (next) {
				n = next;
				break;
			}
			n = parent;
			w->nodes[n].first_child = 0;	/* its callees are gone */
		}
	}
}

/* A call whose caller is known now: visited, then forgotten. */
static int visit_done(struct whole_calls *w, uint32_t top, const struct whole_visitor *v)
{
	int ret;

	w->nodes[top].parent = 0;
	ret = visit(w, top, v);
	drop_tree(w, top);
	return ret;
}

/* ---- the calls ---- */

int whole_calls_add(struct whole_calls *w, uint32_t key, unsigned depth, uint64_t took,
		    unsigned anchor, const struct whole_visitor *v)
{
	uint32_t callees;
	uint64_t below;
	int64_t x;

	if (fold_deeper(w, depth))
		return -1;
	callees = has_waiting(w, depth + 1) ? w->waiting[depth + 1] : 0;
	below = callees ? children_total(w, callees) : 0;
	x = depth <= anchor ? node_new(w, key) : waiting_at(w, depth);
	if (x > 0 && depth > anchor)
		x = child_made(w, x, key);
	if (x < 0)
		return -1;
	if (depth > anchor && depth + 1 > w->nr_deep)
		w->nr_deep = depth + 1;
	w->nodes[x].calls++;
	w->nodes[x].total += took;
	w->nodes[x].self += took > below ? took - below : 0;
	w->nodes[x].total_sq += (unsigned __int128)took * took;
	if (callees && merge_children(w, x, callees))
		return -1;
	return depth <= anchor ? visit_done(w, x, v) : 0;
}

int whole_calls_flush(struct whole_calls *w, unsigned anchor, const struct whole_visitor *v)
{
	int ret = 0;

	if (fold_deeper(w, (int)anchor - 1))
		return -1;
	for (unsigned k = 0; k <= anchor && k < w->nr_waiting; k++) {
		while (!ret && has_waiting(w, k)) {
			uint32_t c = w->nodes[w->waiting[k]].first_child;

			w->nodes[w->waiting[k]].first_child = w->nodes[c].next_sibling;
			w->nodes[c].next_sibling = 0;
			ret = visit_done(w, c, v);
		}
	}
	return ret;
}
