// SPDX-License-Identifier: GPL-2.0
/*
 * Functions with arguments of every type record -A/-R takes, called once
 * each with known values (tests/cases/args/args.sh says what it expects), then,
 * given SECONDS as argv[1], add3(i, i, i) for that long, 100 calls a
 * millisecond (for the live test).
 * greet() also gets a NULL, a pointer nothing is mapped at, a string
 * longer than fntrace keeps, and one that ends at the end of the last
 * readable page.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef __clang__
#define noinline __attribute__((noinline))
#else
#define noinline __attribute__((noinline, noipa))
#endif

noinline long add3(long a, long b, long c)
{
	return a + b + c;
}

/* Never reads who: it may point at nothing. */
noinline int greet(const char *who, int times)
{
	return who ? times : -1;
}

noinline char grade(char c)
{
	return c == 'a' ? 'A' : c;
}

noinline void *where(void *p, unsigned long mask)
{
	return (void *)((uintptr_t)p & mask);
}

noinline double area(double w, double h)
{
	return w * h;
}

noinline float halve(float x)
{
	return x / 2;
}

noinline int narrow(int x, int y)
{
	return x + y;
}

/* Not a leaf: its values on the opening line, its return on the brace. */
noinline long outer(long n, const char *tag)
{
	return add3(n, n, n) + greet(tag, 1);
}

/* A string whose NUL is the last byte before an unmapped page. */
static const char *at_page_end(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return "edge";
	munmap(p + page, page);
	strcpy(p + page - 5, "edge");
	return p + page - 5;
}

int main(int argc, char **argv)
{
	char long_text[100];
	long sum = 0;

	memset(long_text, 'x', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = '\0';
	sum += add3(1, -2, 3000000000L);
	sum += greet("world", 2);
	sum += greet("say \"hi\"\n", 1);
	sum += greet(NULL, 3);
	sum += greet((const char *)16, 0);
	sum += greet(long_text, 1);
	sum += greet(at_page_end(), 1);
	sum += grade('a');
	sum += (long)where((void *)0x12345678, 0xff00);
	sum += (long)area(1.5, -4.0);
	sum += (long)halve(5.0f);
	sum += narrow(300, -1);
	sum += outer(7, "in");
	for (long i = 0, ms = argc > 1 ? atol(argv[1]) * 1000 : 0; i < ms * 100; i++) {
		sum += add3(i, i, i) - 3 * i;
		if (i % 100 == 99)
			usleep(1000);
	}
	printf("%ld\n", sum);
	return 0;
}
