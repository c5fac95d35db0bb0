// SPDX-License-Identifier: GPL-2.0
/*
 * whole_calls: tracing_thresh's calls, which come at their exits, put
 * back under their callers by depth, visited callers first, added up
 * by key while they wait; callers that never came stood in for.
 */
#include "unit.h"
#include "../../src/trace/whole_calls.h"

#include <stdio.h>
#include <string.h>

/* The visits as text: "key(calls,total,self){...}" with '?' for a
 * stand-in. */
struct record {
	char text[512];
	size_t len;
	unsigned depth, max_depth, entered;
};

static void add_text(struct record *r, const char *text)
{
	size_t n = strlen(text);

	if (r->len + n < sizeof(r->text)) {
		memcpy(r->text + r->len, text, n + 1);
		r->len += n;
	}
}

static int enter(void *arg, const struct whole_node *n)
{
	struct record *r = arg;
	char key[16], text[80];

	if (n->key == WHOLE_UNKNOWN)
		snprintf(key, sizeof(key), "?");
	else
		snprintf(key, sizeof(key), "%u", n->key);
	snprintf(text, sizeof(text), "%s(%llu,%llu,%llu){", key, (unsigned long long)n->calls,
		 (unsigned long long)n->total, (unsigned long long)n->self);
	add_text(r, text);
	r->entered++;
	if (++r->depth > r->max_depth)
		r->max_depth = r->depth;
	return 0;
}

static void leave(void *arg, const struct whole_node *n)
{
	struct record *r = arg;

	add_text(r, "}");
	r->depth--;
}

static struct record rec;
static const struct whole_visitor visitor = { enter, leave, &rec };

static void reset(void)
{
	memset(&rec, 0, sizeof(rec));
}

/* a { b { c }, d }, in exit order: c 2, b 1, d 1, a 0. */
static void test_nesting(void)
{
	struct whole_calls w;

	whole_calls_init(&w);
	reset();
	CHECK("nesting: a callee waits", whole_calls_add(&w, 3, 2, 10, 0, &visitor) == 0 &&
	      !rec.len);
	whole_calls_add(&w, 2, 1, 30, 0, &visitor);
	whole_calls_add(&w, 4, 1, 5, 0, &visitor);
	CHECK("nesting: callers wait too", !rec.len);
	whole_calls_add(&w, 1, 0, 100, 0, &visitor);
	CHECK("nesting: the outermost call brings the tree, self times less the callees",
	      !strcmp(rec.text, "1(1,100,65){2(1,30,20){3(1,10,10){}}4(1,5,5){}}"));
	reset();
	whole_calls_flush(&w, 0, &visitor);
	CHECK("nesting: nothing left", !rec.len);
	whole_calls_free(&w);
}

/* Calls of one caller add up by key while they wait; a second outer
 * call starts afresh. */
static void test_adding_up(void)
{
	struct whole_calls w;

	whole_calls_init(&w);
	reset();
	for (int i = 0; i < 1000; i++) {
		whole_calls_add(&w, 3, 2, 2, 0, &visitor);
		whole_calls_add(&w, 2, 1, 5, 0, &visitor);
	}
	CHECK("adding up: memory for the distinct stacks only", w.nr_nodes < 16);
	whole_calls_add(&w, 1, 0, 9000, 0, &visitor);
	CHECK("adding up: a thousand calls as one node each",
	      !strcmp(rec.text, "1(1,9000,4000){2(1000,5000,3000){3(1000,2000,2000){}}}"));
	reset();
	whole_calls_add(&w, 2, 1, 7, 0, &visitor);
	whole_calls_add(&w, 1, 0, 8, 0, &visitor);
	CHECK("adding up: the next outer call has only its own",
	      !strcmp(rec.text, "1(1,8,1){2(1,7,7){}}"));
	whole_calls_free(&w);
}

/* Open frames the reader knows: a call at their depth is visited at
 * once; calls whose callers never came are flushed below stand-ins. */
static void test_anchor_and_flush(void)
{
	struct whole_calls w;

	whole_calls_init(&w);
	reset();
	whole_calls_add(&w, 5, 2, 4, 2, &visitor);
	CHECK("anchor: a call at the open frames' depth is visited at once",
	      !strcmp(rec.text, "5(1,4,4){}"));
	reset();
	whole_calls_add(&w, 7, 3, 3, 1, &visitor);
	whole_calls_add(&w, 6, 2, 6, 1, &visitor);
	whole_calls_add(&w, 8, 4, 1, 1, &visitor);
	whole_calls_flush(&w, 1, &visitor);
	CHECK("flush: each missing caller stood in for, the waiting calls below",
	      !strcmp(rec.text, "?(0,7,0){6(1,6,3){7(1,3,3){}}?(0,1,0){?(0,1,0){8(1,1,1){}}}}"));
	whole_calls_free(&w);
}

/* A thousand levels of recursion, each a call of its own key: no
 * walk recurses in C. */
static void test_deep(void)
{
	struct whole_calls w;
	int ok = 1;

	whole_calls_init(&w);
	reset();
	for (unsigned d = 1000; d > 0 && ok; d--)
		ok = whole_calls_add(&w, d, d, 2000 - d, 0, &visitor) == 0;
	ok = ok && whole_calls_add(&w, 0, 0, 5000, 0, &visitor) == 0;
	CHECK("deep: a thousand levels visited, each once",
	      ok && rec.entered == 1001 && rec.max_depth == 1001 && rec.depth == 0);
	whole_calls_free(&w);
}

int main(void)
{
	test_nesting();
	test_adding_up();
	test_anchor_and_flush();
	test_deep();
	return unit_done();
}
