// SPDX-License-Identifier: GPL-2.0
/*
 * Structs passed by value, for record --auto-args
 * (tests/cases/args/struct_args.sh says what it expects): the x86_64 System V
 * cases of each kind of eightbyte, and the ones that go to the stack and
 * must leave the registers of later parameters where they are.  Built
 * with -g.  Each function reads every field it is given: clang leaves a
 * register unset when the callee it can see never reads it.
 */
#include <stdio.h>

#ifdef __clang__
#define noinline __attribute__((noinline))
#else
#define noinline __attribute__((noinline, noipa))
#endif

struct point { int x, y; };			/* one integer eightbyte */
struct vec2 { float x, y; };			/* one SSE eightbyte */
struct tagged { int id; float weight; };	/* int and float share one */
struct mixed { double d; long n; };		/* SSE, then integer */
struct named { const char *name; short len; char sep; };
struct segment { struct point a; char tag[2]; _Bool on; };
struct big { long a, b, c; };			/* 24 bytes: memory */
struct two { long a, b; };			/* two integer eightbytes */
struct flags { unsigned ready : 1, mode : 3; int count; };
union word { int i; float f; };

noinline long points(struct point p, int k, struct point q)
{
	return (long)(p.x + p.y) * k + q.x - q.y;
}

noinline double vectors(struct vec2 v, double scale, struct mixed m)
{
	return (v.x + v.y) * scale + m.d + (double)m.n;
}

noinline float tagged(int before, struct tagged t)
{
	return (float)before + (float)t.id * t.weight;
}

noinline int named(struct named n, struct segment s)
{
	return n.name[0] + n.len + n.sep + s.a.x + s.a.y + s.tag[0] + s.tag[1] + s.on;
}

noinline long after_big(struct big b, int after, double f)
{
	return b.a + b.b + b.c + after + (long)f;
}

/* Five integer registers taken: t cannot have the two it needs, goes to
 * the stack whole, and c still gets the sixth. */
noinline long no_room(long a1, long a2, long a3, long a4, long a5, struct two t, long c)
{
	return a1 + a2 + a3 + a4 + a5 + t.a + t.b + c;
}

noinline struct big make_big(int seed, const char *why)
{
	return (struct big){ seed, why[0], seed * 2 };
}

noinline struct point make_point(int x, int y)
{
	return (struct point){ x, y };
}

noinline int odd_ones(struct flags fl, union word w, int last)
{
	return (int)fl.ready + (int)fl.mode + fl.count + w.i + last;
}

int main(void)
{
	struct point p = make_point(3, -4), q = { 10, 7 };
	struct vec2 v = { 1.5f, -0.25f };
	struct mixed m = { 0.5, 1L << 33 };
	struct named n = { "alpha", 5, ':' };
	struct segment s = { { 1, 2 }, { 'o', 'k' }, 1 };
	struct big b = make_big(6, "x");
	struct flags fl = { 1, 5, 42 };
	union word w = { .f = 1.0f };
	double total = 0;

	total += points(p, 2, q);
	total += vectors(v, 4.0, m);
	total += tagged(9, (struct tagged){ 11, 0.5f });
	total += named(n, s);
	total += after_big(b, 77, 2.5);
	total += no_room(1, 2, 3, 4, 5, (struct two){ 100, 200 }, 66);
	total += odd_ones(fl, w, -3);
	printf("%.3f\n", total);
	return 0;
}
