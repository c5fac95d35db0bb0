// SPDX-License-Identifier: GPL-2.0
/*
 * Functions whose DWARF says what their arguments are, for record
 * --auto-args (tests/cases/args/auto_args.sh says what it expects): every kind
 * of parameter it types, a struct between two (tests/cases/args/struct_args.sh
 * has the rest), a struct returned in registers, and where it must stop
 * (a variadic tail).  Built with -g.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#ifdef __clang__
#define noinline __attribute__((noinline))
#else
#define noinline __attribute__((noinline, noipa))
#endif

enum color { RED, GREEN = 5, BLUE };
typedef const char *text_t;

struct pair {
	int a, b;
};

noinline int scalars(int i, unsigned short u, bool flag, char c, long l)
{
	return i + u + flag + c + (int)l;
}

noinline text_t strings(text_t name, const char *empty, void *where, enum color hue)
{
	return hue == BLUE && where ? name : empty;
}

noinline enum color next_color(enum color c)
{
	return c == GREEN ? BLUE : RED;
}

noinline double floats(double d, float f, long double skipped, int after)
{
	return d + f + (double)skipped + after;
}

noinline int pair_between(int before, struct pair p, int after)
{
	return before + p.a + p.b + after;
}

noinline struct pair gives_struct(int a, int b)
{
	return (struct pair){ a, b };
}

noinline int variadic(int count, ...)
{
	va_list ap;
	int sum = 0;

	va_start(ap, count);
	for (int i = 0; i < count; i++)
		sum += va_arg(ap, int);
	va_end(ap);
	return sum;
}

noinline void nothing(void)
{
}

int main(void)
{
	static char here;
	struct pair p = gives_struct(3, 4);
	long total = scalars(-7, 65535, true, 'x', 1L << 40);

	total += strings("hello", "", &here, BLUE) != NULL;
	total += next_color(GREEN);
	total += (long)floats(0.25, 1.5f, 2.0L, 9);
	total += pair_between(1, p, 2);
	total += variadic(3, 10, 20, 30);
	nothing();
	printf("%ld\n", total);
	return 0;
}
